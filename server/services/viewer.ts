/**
 * Who is asking, as far as the catalogue cares. Prices are shown only to a signed-in user
 * whose company is verified and APPROVED; everyone else is a visitor.
 */
export interface Viewer {
  canSeePrices: boolean;
}

export const VISITOR: Viewer = { canSeePrices: false };

export function viewerForCompany(company: { isVerified: boolean; status: string } | null): Viewer {
  return { canSeePrices: company !== null && company.isVerified && company.status === 'APPROVED' };
}
