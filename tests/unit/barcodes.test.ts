import { describe, expect, it } from 'vitest';
import { eanOf, isValidEan13, withCheckDigit } from '../../src/contracts/barcodes';

describe('isValidEan13', () => {
  it('accepts 13 digits whose last one is the GS1 check digit', () => {
    for (const ean of ['4006381333931', '5901234123457', '5941234000013', '2000000000008']) {
      expect(isValidEan13(ean), ean).toBe(true);
    }
  });

  it('refuses a wrong check digit, and two neighbouring digits swapped', () => {
    expect(isValidEan13('4006381333932')).toBe(false);
    expect(isValidEan13('5901234123450')).toBe(false);
    expect(isValidEan13('0406381333931')).toBe(false);
  });

  it('refuses anything but exactly 13 digits', () => {
    for (const text of [
      '',
      '400638133393',
      '40063813339310',
      ' 4006381333931',
      '4006381333931\n',
      '4006 381333931',
      '400638133393a',
      '+006381333931',
      // Arabic-Indic digits are digits, but not a barcode's.
      '٤٠٠٦٣٨١٣٣٣٩٣١',
    ]) {
      expect(isValidEan13(text), JSON.stringify(text)).toBe(false);
    }
  });
});

describe('withCheckDigit', () => {
  it('completes 12 digits into a valid EAN-13', () => {
    expect(withCheckDigit('400638133393')).toBe('4006381333931');
    expect(withCheckDigit('594123400001')).toBe('5941234000013');
    for (let n = 0; n < 200; n += 1) {
      expect(isValidEan13(withCheckDigit(String(n * 4_999_999_999).padStart(12, '0')))).toBe(true);
    }
  });

  it('refuses what is not 12 digits', () => {
    expect(() => withCheckDigit('40063813339')).toThrow(RangeError);
    expect(() => withCheckDigit('4006381333931')).toThrow(RangeError);
  });
});

describe('eanOf', () => {
  it('drops the spaces between the groups printed under a barcode', () => {
    expect(eanOf(' 5 901234 123457 ')).toBe('5901234123457');
    expect(eanOf('5901234123457')).toBe('5901234123457');
  });
});
