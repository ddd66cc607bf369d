/**
 * Product barcodes (docs/product.md#back-office): a product's EAN-13, the number printed
 * under the barcode on its pack, which a sales rep scans to add the product to an order.
 * One rule for the staff form, the server and the demo data; the database checks only that
 * it is 13 digits (migration 0015).
 */

/** Digits of an EAN-13, its check digit last. */
export const EAN_LENGTH = 13;

const EAN_SHAPE = /^\d{13}$/;
const DATA_SHAPE = /^\d{12}$/;

/**
 * The GS1 check digit of the 12 digits before it: counted from the right, the digits are
 * weighed 3, 1, 3, 1…, and the check digit brings their sum up to a multiple of ten.
 */
function checkDigit(data: string): number {
  let sum = 0;
  for (let i = 0; i < data.length; i += 1) {
    sum += Number(data[i]) * (i % 2 === 0 ? 1 : 3);
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether `text` is an EAN-13: exactly 13 digits (nothing around them), the last one right. */
export function isValidEan13(text: string): boolean {
  return EAN_SHAPE.test(text) && checkDigit(text.slice(0, 12)) === Number(text[12]);
}

/** The EAN-13 of 12 digits: them and their check digit. */
export function withCheckDigit(data: string): string {
  if (!DATA_SHAPE.test(data)) throw new RangeError(`Not the 12 digits of an EAN-13: ${data}`);
  return `${data}${checkDigit(data)}`;
}

/**
 * An EAN as typed: the spaces dropped, since the digits under a barcode are printed in
 * groups ("5 941234 000017") and are often typed that way.
 */
export const eanOf = (typed: string): string => typed.replace(/\s+/gu, '');
