/** Dates on the profile are written the Romanian way (docs/product.md#profile). */
let profileFormat: Intl.DateTimeFormat | undefined;
export const profileDate = (iso: string | null | undefined): string =>
  iso
    ? (profileFormat ??= new Intl.DateTimeFormat('ro-RO', { dateStyle: 'medium' })).format(
        new Date(iso),
      )
    : '—';
