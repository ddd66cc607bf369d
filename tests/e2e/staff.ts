/** The staff account the browser tests' server is started with. */
export const STAFF = { email: 'staff.e2e@example.com', password: 'Staff-E2E-Password-1' };
