/**
 * Who is asking, as far as the catalogue cares. Prices are shown only to a signed-in user
 * whose company is verified and APPROVED (see canSeePrices) and to a sales rep; everyone
 * else is a visitor.
 */
export interface Viewer {
  canSeePrices: boolean;
}
