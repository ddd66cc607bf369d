/** Dates on the profile are written the Romanian way, as the spec asks. */
export const profileDate = (iso: string | null | undefined): string =>
  iso ? new Intl.DateTimeFormat('ro-RO', { dateStyle: 'medium' }).format(new Date(iso)) : '—';
