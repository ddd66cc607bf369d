import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { crc32, deflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import { createInstance } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '../../src/contracts/languages';
import {
  buildProForma,
  proFormaFileName,
  wrapText,
  type ProFormaCustomer,
  type ProFormaFonts,
  type ProFormaOptions,
  type ProFormaOrder,
} from '../../src/lib/pro-forma/pro-forma';
import en from '../../src/locales/en.json';
import itTexts from '../../src/locales/it.json';
import ro from '../../src/locales/ro.json';
import { CONFIGURED_MAKER } from '../fixtures/maker-details';
import { readPdf } from './pdf-text';

/** A product with Romanian letters, small and capital, and a dash. */
const SHAMPOO = 'Șampon reparator cu ulei de argan, 250 ml — îngrijire';

const require = createRequire(import.meta.url);
const fontFile = (name: string) =>
  new Uint8Array(readFileSync(require.resolve(`notosans-fontface/fonts/${name}`)));
const FONTS: ProFormaFonts = {
  regular: fontFile('NotoSans-Regular.ttf'),
  bold: fontFile('NotoSans-Bold.ttf'),
};

let texts: Record<Language, NonNullable<ProFormaOptions['t']>>;
beforeAll(async () => {
  const i18n = createInstance();
  await i18n.init({
    lng: 'ro',
    resources: {
      ro: { translation: ro },
      en: { translation: en },
      it: { translation: itTexts },
    },
    interpolation: { escapeValue: false },
  });
  texts = { ro: i18n.getFixedT('ro'), en: i18n.getFixedT('en'), it: i18n.getFixedT('it') };
});

/** An order of `lines` lines, the first one the argan shampoo, 3 of each at 12.40. */
function anOrder(lines = 1, overrides: Partial<ProFormaOrder> = {}): ProFormaOrder {
  const orderItems = Array.from({ length: lines }, (_, i) => ({
    productName: i === 0 ? SHAMPOO : `Mască nutritivă cu keratină nr. ${i + 1}, 500 ml`,
    productSku: `FL-${String(i + 1).padStart(4, '0')}`,
    quantity: 3,
    unitPrice: 12.4,
    totalPrice: 37.2,
  }));
  const subtotal = Math.round(lines * 37.2 * 100) / 100;
  return {
    createdAt: '2026-11-27T10:30:00.000Z',
    subtotal,
    total: subtotal,
    currency: 'EUR',
    notes: 'Livrare după ora 14; sunați înainte.\nATENȚIE: ȘAMPOANE ÎN STICLĂ, LIVRARE ÎN ROMÂNIA.',
    shippingAddress: {
      firstName: 'Ioana',
      lastName: 'Țurcanu',
      street: 'Str. Știrbei Vodă 12',
      city: 'București',
      zipCode: '010102',
      country: 'România',
      phone: '+40 721 000 111',
    },
    placedBy: { id: 7, firstName: 'Mihai', lastName: 'Ștefănescu' },
    orderItems,
    ...overrides,
  };
}

const aCustomer = (overrides: Partial<ProFormaCustomer> = {}): ProFormaCustomer => ({
  name: 'Salon Frumusețe Înaltă SRL',
  taxNumber: 'RO12345678',
  address: 'Bd. Unirii 5, sector 3',
  city: 'București',
  state: '',
  postalCode: '030833',
  country: 'România',
  ...overrides,
});

const build = (
  order: ProFormaOrder,
  language: Language = 'ro',
  options: Partial<ProFormaOptions> = {},
) =>
  buildProForma(order, aCustomer(), language, {
    reference: { orderNumber: 'ORD-2026-000123' },
    t: texts[language],
    fonts: FONTS,
    ...options,
  });

/** A PNG of `width` × `height`: a black diagonal on transparent, as a signature is. */
function aPng(width: number, height: number): string {
  const chunk = (type: string, data: Uint8Array) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const x = Math.floor((y / height) * width);
    rows[(width * 4 + 1) * y + 1 + x * 4 + 3] = 255;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', new Uint8Array()),
  ]).toString('base64');
}

const allText = (pages: string[][]) => pages.flat().join(' ');

// Reading a 630 KB font and laying out a hundred lines takes a couple of seconds here.
describe('buildProForma', { timeout: 30_000 }, () => {
  it('writes a Romanian order with its diacritics, in a subset of the font', async () => {
    const pdf = await readPdf(await build(anOrder(1)));

    expect(pdf.pageCount).toBe(1);
    const shown = allText(pdf.pages);
    expect(shown).toContain('Factură proformă');
    expect(shown).toContain(SHAMPOO);
    expect(shown).toContain('Salon Frumusețe Înaltă SRL');
    expect(shown).toContain('030833 București');
    expect(shown).toContain('Comanda nr.: ORD-2026-000123');
    expect(shown).toContain('CUI/CIF: RO12345678');
    expect(shown).toContain('Comandă preluată de Mihai Ștefănescu');
    expect(shown).toContain('Plata prin transfer bancar în 15 zile de la data facturii.');
    expect(shown).toContain('Livrare după ora 14; sunați înainte.');
    expect(shown).toContain('ATENȚIE: ȘAMPOANE ÎN STICLĂ, LIVRARE ÎN ROMÂNIA.');
    expect(shown).toContain('Floravia Professional');
    expect(shown).not.toContain('\uFFFD');
    // The amounts as Romanian writes euros.
    expect(shown).toContain(
      new Intl.NumberFormat('ro-RO', { style: 'currency', currency: 'EUR' }).format(37.2),
    );

    const letters = new Set(pdf.fonts.flatMap((font) => [...font.toUnicode.values()]));
    for (const letter of 'ăâîșțĂÂÎȘȚ') expect(letters).toContain(letter);
    // Only the letters used: a small part of the 629 KB font file.
    for (const font of pdf.fonts) {
      expect(font.baseFont).toMatch(/^[A-Z]{6}\+NotoSans-(Regular|Bold)$/);
      expect(font.program.length).toBeLessThan(FONTS.regular.length / 5);
    }
  });

  it("carries the maker's registered office, numbers, bank account and payment term", async () => {
    const shown = allText(
      (await readPdf(await build(anOrder(1), 'en', { maker: CONFIGURED_MAKER }))).pages,
    );

    expect(shown).toContain('VAT/CUI: RO87654321');
    expect(shown).toContain('Trade register: J35/1234/1998');
    expect(shown).toContain('Calea Șagului 10, 300516 Timișoara');
    expect(shown).toContain('IBAN: RO49 AAAA 1B31 0075 9384 0000 · Banca Transilvania');
    expect(shown).toContain('Payment by bank transfer within 30 days of the invoice date.');

    // Without them configured, no empty label stands where they would be.
    const plain = allText((await readPdf(await build(anOrder(1), 'en'))).pages);
    expect(plain).not.toContain('IBAN');
    expect(plain).not.toContain('Trade register');
    expect(plain).toContain('within 15 days');
  });

  it('draws every letter with its outline from the font', async () => {
    const pdf = await readPdf(await build(anOrder(3)));

    expect(pdf.fonts).toHaveLength(2);
    for (const font of pdf.fonts) {
      const original = fontkit.create(font.baseFont.includes('Bold') ? FONTS.bold : FONTS.regular);
      const subset = fontkit.create(font.program);
      expect(font.toUnicode.size).toBeGreaterThan(20);
      for (const [glyph, letter] of font.toUnicode) {
        // `letter` may be a ligature's letters ("fl"): laid out, they make that one glyph.
        const outline = original.layout(letter).glyphs[0]?.path.toSVG();
        expect(subset.getGlyph(glyph).path.toSVG(), letter).toBe(outline);
      }
    }
  });

  it('writes its texts in the language asked for', async () => {
    const english = allText((await readPdf(await build(anOrder(1), 'en'))).pages);
    expect(english).toContain('Pro-forma invoice');
    expect(english).toContain('Payment by bank transfer within 15 days of the invoice date.');
    expect(english).toContain('€37.20');
    const italian = allText((await readPdf(await build(anOrder(1), 'it'))).pages);
    expect(italian).toContain('Fattura pro forma');
    expect(italian).toContain('Ordine raccolto da Mihai Ștefănescu');
  });

  it('continues a 120-line order on further pages, the table header on each', async () => {
    const order = anOrder(120);
    const pdf = await readPdf(await build(order));

    expect(pdf.pageCount).toBeGreaterThan(2);
    const shown = allText(pdf.pages);
    for (const item of order.orderItems) expect(shown).toContain(item.productSku);
    pdf.pages.forEach((lines, n) => {
      expect(lines).toContain('Produs');
      expect(lines).toContain(`Pagina ${n + 1} din ${pdf.pageCount}`);
    });
    // The totals come once, after the last line.
    const last = pdf.pages[pdf.pageCount - 1] ?? [];
    expect(last).toContain('Total');
  });

  it('embeds the customer’s signature as a picture', async () => {
    const pdf = await readPdf(await build(anOrder(2), 'ro', { signature: aPng(480, 160) }));

    expect(pdf.images).toEqual([{ width: 480, height: 160 }]);
    expect(allText(pdf.pages)).toContain('Semnătura clientului');
  });

  it('has no picture nor signature line without a signature', async () => {
    const pdf = await readPdf(await build(anOrder(2)));
    expect(pdf.images).toEqual([]);
    expect(allText(pdf.pages)).not.toContain('Semnătura clientului');
  });

  it('names an order not sent yet by the device’s reference, said to be one', async () => {
    const pdf = await readPdf(
      await build(anOrder(1, { placedBy: null, notes: '' }), 'ro', {
        reference: { localReference: 'L-1A2B3C4D' },
      }),
    );
    const shown = allText(pdf.pages);
    expect(shown).toContain('Referință pe dispozitiv (netrimisă încă): L-1A2B3C4D');
    expect(shown).not.toContain('Comanda nr.');
    expect(shown).not.toContain('preluată de');
    expect(shown).not.toContain('Observații');
  });

  it('keeps a 10-line order small', async () => {
    const bytes = await build(anOrder(10), 'ro', { signature: aPng(480, 160) });
    expect(bytes.length).toBeLessThan(120 * 1024);
  });

  it('imports pdf-lib and fontkit only when a PDF is made', () => {
    const source = readFileSync('src/lib/pro-forma/pro-forma.ts', 'utf8');
    const staticImports = [...source.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)].map(
      (match) => match[1],
    );
    expect(staticImports).not.toContain('pdf-lib');
    expect(staticImports).not.toContain('@pdf-lib/fontkit');
    expect(source).toContain("import('pdf-lib')");
    expect(source).toContain("import('@pdf-lib/fontkit')");
  });
});

describe('wrapText', () => {
  const measure = (text: string) => text.length;

  it('breaks at spaces within the width', () => {
    expect(wrapText('cu ulei de argan', 9, measure)).toEqual(['cu ulei', 'de argan']);
  });

  it('breaks a word longer than the width anywhere', () => {
    expect(wrapText('FL-ABCDEFGHIJ', 5, measure)).toEqual(['FL-AB', 'CDEFG', 'HIJ']);
  });

  it('keeps the lines of a note and drops control characters', () => {
    expect(wrapText('unu\ndoi\r\ntrei\u0007', 20, measure)).toEqual(['unu', 'doi', 'trei']);
  });
});

describe('proFormaFileName', () => {
  it('names the file by the order number, or the device’s reference', () => {
    expect(proFormaFileName({ orderNumber: 'ORD-2026-000123' })).toBe(
      'proforma-ORD-2026-000123.pdf',
    );
    expect(proFormaFileName({ localReference: 'L-1A2B/3C4D' })).toBe('proforma-L-1A2B-3C4D.pdf');
  });
});
