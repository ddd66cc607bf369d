/**
 * Who is asking, as far as the catalogue cares. Prices are shown only to a signed-in user
 * whose company is verified and APPROVED (see canSeePrices); everyone else is a visitor.
 */
export interface Viewer {
  canSeePrices: boolean;
}
