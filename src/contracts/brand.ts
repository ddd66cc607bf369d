/** The maker's public identity, shown in the footer and in structured data. */
export const BRAND = {
  name: 'Floravia Professional',
  foundingDate: '1998',
  /** Contact details are shown only when set. */
  email: 'comenzi@floravia.ro',
  phone: '+40 256 490 198',
  address: '',
} as const;
