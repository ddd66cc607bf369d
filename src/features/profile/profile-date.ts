/** Dates on the profile are written the Romanian way (docs/product.md#profile). */
export const profileDate = (iso: string | null | undefined): string =>
  iso ? new Intl.DateTimeFormat('ro-RO', { dateStyle: 'medium' }).format(new Date(iso)) : '—';
