/**
 * The pro-forma invoice of an order, made on the device as a PDF, also offline, in the
 * customer's language: the one a rep hands the salon at the booth, and the one a salon makes
 * of its own orders. pdf-lib, fontkit and the font (Noto Sans, which has
 * the Romanian letters ș and ț that PDF's standard fonts lack) are loaded only when a
 * pro-forma is made: none of them is part of any first screen. The font is embedded as a
 * subset: the file carries only the letters it uses.
 */
// Noto Sans 2.0 as the notosans-fontface package ships it. Not Google Fonts' newer build
// (@expo-google-fonts/noto-sans): its glyphs have odd lengths, which fontkit's subsetter
// misplaces, and half the letters come out blank.
import boldFontUrl from 'notosans-fontface/fonts/NotoSans-Bold.ttf?url';
import regularFontUrl from 'notosans-fontface/fonts/NotoSans-Regular.ttf?url';
import type { TFunction } from 'i18next';
// Types only: erased from the build, the libraries themselves are imported when needed.
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { BRAND_DETAILS, type MakerDetails } from '../../contracts/maker';
import type { RepCustomer } from '../../contracts/field-sales';
import type { Order, OrderItem } from '../../contracts/orders';
import { formatDateTime, formatMoney } from '../i18n';

/** What of an order the pro-forma shows: a sent order has it, and so has one still waiting. */
export type ProFormaOrder = Pick<
  Order,
  'createdAt' | 'subtotal' | 'total' | 'currency' | 'notes' | 'shippingAddress' | 'placedBy'
> & {
  orderItems: readonly Pick<
    OrderItem,
    'productName' | 'productSku' | 'quantity' | 'unitPrice' | 'totalPrice'
  >[];
};

export type ProFormaCustomer = Pick<
  RepCustomer,
  'name' | 'taxNumber' | 'address' | 'city' | 'state' | 'postalCode' | 'country'
>;

/** The font files, regular and bold (TrueType). */
export interface ProFormaFonts {
  regular: Uint8Array;
  bold: Uint8Array;
}

export interface ProFormaOptions {
  /**
   * The order's number once the server has it; until then the device's own reference of the
   * order still waiting to be sent, which the pro-forma says is not an order number.
   */
  reference: { orderNumber: string } | { localReference: string };
  /** The customer's signature: a PNG in base64, without a `data:` prefix. */
  signature?: string | null | undefined;
  /**
   * The texts of the document's language (i18next's `getFixedT(language)`), which must be
   * loaded: a text missing from them would come out in another language.
   */
  t: TFunction;
  /** The font files; by default downloaded from the app's assets, once per page load. */
  fonts?: ProFormaFonts | undefined;
  /**
   * The maker's details as the server last gave them (its registered office, numbers, bank
   * account and payment term); by default the brand's alone.
   */
  maker?: MakerDetails | undefined;
  /** When the document is made (its metadata); by default now. */
  now?: Date | undefined;
}

/** A4 in points, and the margin around every page (15 mm). */
const PAGE = { width: 595.28, height: 841.89, margin: 42.5 };
/** Room kept at the foot of every page for its footer line. */
const FOOTER_HEIGHT = 24;

/** Font sizes, in points. */
const SIZE = { title: 18, body: 9.5, small: 8, table: 9 };
/** Line spacing, as a multiple of the font size. */
const LEADING = 1.3;
/** Padding above and below the text of a table row. */
const ROW_PADDING = 4;
/** The widest and highest the signature is drawn, in points (about 64 × 21 mm). */
const SIGNATURE_BOX = { width: 180, height: 60 };

const INK = { r: 0.11, g: 0.15, b: 0.13 };
const MUTED = { r: 0.31, g: 0.36, b: 0.34 };
const RULE = { r: 0.8, g: 0.78, b: 0.74 };
const SHADE = { r: 0.95, g: 0.94, b: 0.91 };

type Pdf = typeof import('pdf-lib');

let fontDownload: Promise<ProFormaFonts> | undefined;

async function download(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`The pro-forma's font could not be loaded (${response.status})`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

/** The font files from the app's assets: downloaded once, again after a failure. */
function loadFonts(): Promise<ProFormaFonts> {
  fontDownload ??= Promise.all([download(regularFontUrl), download(boldFontUrl)]).then(
    ([regular, bold]) => ({ regular, bold }),
  );
  fontDownload.catch(() => (fontDownload = undefined));
  return fontDownload;
}

/** Text the font can draw on one line: tabs as spaces, no other control characters. */
const printable = (text: string) => text.replace(/\t/g, ' ').replace(/\p{Cc}/gu, '');

/** `text` in lines at most `width` wide: broken at spaces, a word too long broken anywhere. */
export function wrapText(text: string, width: number, measure: (text: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = '';
    for (const word of printable(paragraph).split(' ')) {
      const candidate = line ? `${line} ${word}` : word;
      if (measure(candidate) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      let rest = word;
      while (measure(rest) > width && rest.length > 1) {
        let cut = rest.length - 1;
        while (cut > 1 && measure(rest.slice(0, cut)) > width) cut -= 1;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

interface Column {
  width: number;
  align: 'left' | 'right';
}

/** SKU, product, quantity, unit price, line total: the product takes what the others leave. */
function columns(contentWidth: number): Column[] {
  const product = contentWidth - 82 - 42 - 72 - 78;
  return [
    { width: 82, align: 'left' },
    { width: product, align: 'left' },
    { width: 42, align: 'right' },
    { width: 72, align: 'right' },
    { width: 78, align: 'right' },
  ];
}

/** Space between the text of neighbouring cells. */
const CELL_GAP = 6;

type Colour = typeof INK;

interface TextStyle {
  font?: PDFFont;
  size?: number;
  color?: Colour;
  align?: 'left' | 'right';
}

/**
 * Writes a document top to bottom: where the next line goes, and a new page when the next
 * block does not fit on this one.
 */
class Writer {
  page: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];
  readonly left = PAGE.margin;
  readonly width = PAGE.width - 2 * PAGE.margin;

  constructor(
    private readonly pdf: Pdf,
    private readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
    /** Drawn at the top of each page after the first (the table's header). */
    public onNewPage: (() => void) | undefined = undefined,
  ) {
    this.page = this.addPage();
  }

  private addPage(): PDFPage {
    const page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pages.push(page);
    this.y = PAGE.height - PAGE.margin;
    return page;
  }

  /** Starts a new page unless `height` points still fit above the footer. */
  ensure(height: number): void {
    if (this.y - height >= PAGE.margin + FOOTER_HEIGHT) return;
    this.page = this.addPage();
    this.onNewPage?.();
  }

  lineHeight(size: number): number {
    return size * LEADING;
  }

  wrap(text: string, width: number, font = this.regular, size = SIZE.body): string[] {
    return wrapText(text, width, (part) => font.widthOfTextAtSize(part, size));
  }

  /** One line of text whose top is at `top`, from `x` (or ending at `x` when right aligned). */
  draw(
    text: string,
    x: number,
    top: number,
    { font = this.regular, size = SIZE.body, color = INK, align = 'left' }: TextStyle = {},
  ): void {
    const clean = printable(text);
    if (!clean) return;
    const at = align === 'right' ? x - font.widthOfTextAtSize(clean, size) : x;
    // The baseline sits the font's ascent below the top of the line.
    const baseline = top - font.heightAtSize(size, { descender: false });
    this.page.drawText(clean, {
      x: at,
      y: baseline,
      size,
      font,
      color: this.pdf.rgb(color.r, color.g, color.b),
    });
  }

  /** Wrapped lines at the current height, moving it down; a page break may fall between lines. */
  paragraph(
    text: string,
    { font = this.regular, size = SIZE.body, color = INK, x = this.left, width = this.width } = {},
  ): void {
    for (const line of this.wrap(text, width, font, size)) {
      this.ensure(this.lineHeight(size));
      this.draw(line, x, this.y, { font, size, color });
      this.y -= this.lineHeight(size);
    }
  }

  rule(y: number, color = RULE, thickness = 0.6): void {
    this.page.drawLine({
      start: { x: this.left, y },
      end: { x: this.left + this.width, y },
      thickness,
      color: this.pdf.rgb(color.r, color.g, color.b),
    });
  }

  shade(top: number, height: number): void {
    this.page.drawRectangle({
      x: this.left,
      y: top - height,
      width: this.width,
      height,
      color: this.pdf.rgb(SHADE.r, SHADE.g, SHADE.b),
    });
  }

  /** A row of cells, each wrapped to its column; the row's height is its tallest cell's. */
  row(cells: string[], cols: Column[], { font = this.regular, shaded = false } = {}): void {
    const size = SIZE.table;
    const wrapped = cells.map((cell, i) =>
      this.wrap(cell, (cols[i]?.width ?? 0) - CELL_GAP, font, size),
    );
    const lines = Math.max(1, ...wrapped.map((cellLines) => cellLines.length));
    const height = lines * this.lineHeight(size) + 2 * ROW_PADDING;
    this.ensure(height);
    if (shaded) this.shade(this.y, height);
    let x = this.left;
    wrapped.forEach((cellLines, i) => {
      const col = cols[i] as Column;
      cellLines.forEach((line, n) => {
        const top = this.y - ROW_PADDING - n * this.lineHeight(size);
        const inner = col.align === 'right' ? x + col.width - CELL_GAP / 2 : x + CELL_GAP / 2;
        this.draw(line, inner, top, { font, size, align: col.align });
      });
      x += col.width;
    });
    this.y -= height;
    this.rule(this.y);
  }
}

/** The lines of a party's block: its name first, then its address and numbers. */
const partyLines = (lines: (string | false | undefined)[]) =>
  lines.filter((line): line is string => typeof line === 'string' && line.trim() !== '');

/**
 * The pro-forma invoice of `order` for `customer`, in `language`, as the bytes of a PDF:
 * the maker, the customer and where the order goes, its number or the device's reference,
 * its date, its lines (continued on new pages with the table's header), the totals in EUR,
 * the notes, the payment terms, the rep who took it and the customer's signature.
 */
export async function buildProForma(
  order: ProFormaOrder,
  customer: ProFormaCustomer,
  language: string,
  options: ProFormaOptions,
): Promise<Uint8Array> {
  const { t } = options;
  const maker = options.maker ?? BRAND_DETAILS;
  const [pdf, { default: fontkit }, fonts] = await Promise.all([
    import('pdf-lib'),
    import('@pdf-lib/fontkit'),
    options.fonts ?? loadFonts(),
  ]);
  const doc = await pdf.PDFDocument.create();
  doc.registerFontkit(fontkit);
  // A subset's name starts with a tag of six capitals (PDF 1.7, 9.6.4): readers and
  // checkers then know the file holds only some of the font's letters.
  const [regular, bold] = await Promise.all([
    doc.embedFont(fonts.regular, { subset: true, customName: 'FLPFRA+NotoSans-Regular' }),
    doc.embedFont(fonts.bold, { subset: true, customName: 'FLPFRB+NotoSans-Bold' }),
  ]);
  const signature = options.signature ? await doc.embedPng(options.signature) : undefined;

  const reference =
    'orderNumber' in options.reference
      ? { label: t('proForma.document.orderNumber'), value: options.reference.orderNumber }
      : { label: t('proForma.document.localReference'), value: options.reference.localReference };
  const title = t('proForma.document.title');
  const now = options.now ?? new Date();
  doc.setTitle(`${title} ${reference.value}`);
  doc.setAuthor(maker.name);
  doc.setCreator(maker.name);
  doc.setLanguage(language);
  doc.setCreationDate(now);
  doc.setModificationDate(now);

  const w = new Writer(pdf, doc, regular, bold);
  const money = (amount: number) => formatMoney(amount, language);

  // 1. The title, the number and the date.
  w.draw(title, w.left, w.y, { font: bold, size: SIZE.title });
  w.y -= w.lineHeight(SIZE.title) + 2;
  const date = formatDateTime(order.createdAt, language);
  w.paragraph(`${reference.label}: ${reference.value}`);
  w.paragraph(`${t('proForma.document.date')}: ${date}`);
  w.y -= 14;

  // 2. The maker, the customer and the delivery address, side by side.
  const shipping = order.shippingAddress;
  const blocks: { heading: string; lines: string[] }[] = [
    {
      heading: t('proForma.document.supplier'),
      lines: partyLines([
        maker.name,
        maker.taxNumber && t('proForma.document.taxNumber', { number: maker.taxNumber }),
        maker.tradeRegister &&
          t('proForma.document.tradeRegister', { number: maker.tradeRegister }),
        maker.address,
        maker.phone && t('proForma.document.phone', { phone: maker.phone }),
        maker.email && t('proForma.document.email', { email: maker.email }),
      ]),
    },
    {
      heading: t('proForma.document.customer'),
      lines: partyLines([
        customer.name,
        customer.taxNumber && t('proForma.document.taxNumber', { number: customer.taxNumber }),
        customer.address,
        [customer.postalCode, customer.city].filter(Boolean).join(' '),
        customer.state,
        customer.country,
      ]),
    },
    {
      heading: t('proForma.document.shipTo'),
      lines: partyLines([
        `${shipping.firstName} ${shipping.lastName}`,
        shipping.street,
        [shipping.zipCode, shipping.city].filter(Boolean).join(' '),
        shipping.country,
        shipping.phone,
      ]),
    },
  ];
  const gap = 14;
  const blockWidth = (w.width - gap * (blocks.length - 1)) / blocks.length;
  const blocksTop = w.y;
  let lowest = blocksTop;
  blocks.forEach((block, i) => {
    const x = w.left + i * (blockWidth + gap);
    let y = blocksTop;
    w.draw(block.heading.toLocaleUpperCase(language), x, y, {
      font: bold,
      size: SIZE.small,
      color: MUTED,
    });
    y -= w.lineHeight(SIZE.small) + 2;
    block.lines.forEach((line, n) => {
      const font = n === 0 ? bold : regular;
      for (const part of w.wrap(line, blockWidth, font)) {
        w.draw(part, x, y, { font });
        y -= w.lineHeight(SIZE.body);
      }
    });
    lowest = Math.min(lowest, y);
  });
  w.y = lowest - 16;

  // 3. The lines, the table's header again at the top of every page it continues on.
  const cols = columns(w.width);
  const header = [
    t('proForma.document.columns.sku'),
    t('proForma.document.columns.product'),
    t('proForma.document.columns.quantity'),
    t('proForma.document.columns.unitPrice'),
    t('proForma.document.columns.total'),
  ];
  const drawHeader = () => {
    w.rule(w.y, INK, 0.8);
    w.row(header, cols, { font: bold, shaded: true });
  };
  drawHeader();
  w.onNewPage = drawHeader;
  for (const item of order.orderItems) {
    w.row(
      [
        item.productSku,
        item.productName,
        String(item.quantity),
        money(item.unitPrice),
        money(item.totalPrice),
      ],
      cols,
    );
  }
  w.onNewPage = undefined;

  // 4. The totals under the amounts' columns.
  const right = w.left + w.width;
  const totals = [
    { label: t('proForma.document.subtotal'), value: money(order.subtotal), font: regular },
    { label: t('proForma.document.total'), value: money(order.total), font: bold },
  ];
  w.y -= 6;
  w.ensure(totals.length * w.lineHeight(SIZE.body + 1) + 4);
  const labelRight = right - (cols[4] as Column).width - CELL_GAP / 2;
  for (const line of totals) {
    const size = line.font === bold ? SIZE.body + 1 : SIZE.body;
    w.draw(line.label, labelRight, w.y, { font: line.font, size, align: 'right' });
    w.draw(line.value, right - CELL_GAP / 2, w.y, { font: line.font, size, align: 'right' });
    w.y -= w.lineHeight(size);
  }
  w.y -= 12;

  // 5. The notes, the payment terms, who took the order.
  if (order.notes.trim()) {
    w.ensure(2 * w.lineHeight(SIZE.body));
    w.paragraph(t('proForma.document.notes'), { font: bold });
    w.paragraph(order.notes.trim());
    w.y -= 8;
  }
  w.paragraph(t('proForma.document.payment', { count: maker.paymentDays }));
  if (maker.iban) {
    const account = t('proForma.document.iban', { iban: maker.iban });
    w.paragraph(maker.bank ? `${account} · ${maker.bank}` : account, { font: bold });
  }
  const rep = order.placedBy;
  if (rep) {
    w.paragraph(
      t('proForma.document.placedBy', { name: `${rep.firstName} ${rep.lastName}`.trim() }),
    );
  }
  w.paragraph(t('proForma.document.notFiscal'), { size: SIZE.small, color: MUTED });

  // 6. The customer's signature, over a line, as it was drawn.
  if (signature) {
    const scale = Math.min(
      SIGNATURE_BOX.width / signature.width,
      SIGNATURE_BOX.height / signature.height,
    );
    const height = signature.height * scale;
    w.y -= 14;
    w.ensure(w.lineHeight(SIZE.small) + 4 + height + 8);
    w.draw(t('proForma.document.signature'), w.left, w.y, { size: SIZE.small, color: MUTED });
    w.y -= w.lineHeight(SIZE.small) + 4 + height;
    w.page.drawImage(signature, {
      x: w.left,
      y: w.y,
      width: signature.width * scale,
      height,
    });
    w.page.drawLine({
      start: { x: w.left, y: w.y - 2 },
      end: { x: w.left + SIGNATURE_BOX.width, y: w.y - 2 },
      thickness: 0.6,
      color: pdf.rgb(MUTED.r, MUTED.g, MUTED.b),
    });
  }

  // 7. Every page's footer: whose document it is, and the page of how many.
  const pages = w.pages.length;
  w.pages.forEach((page, n) => {
    w.page = page;
    const y = PAGE.margin + w.lineHeight(SIZE.small);
    w.rule(y + 4);
    w.draw(`${maker.name} · ${title} ${reference.value}`, w.left, y, {
      size: SIZE.small,
      color: MUTED,
    });
    w.draw(t('proForma.document.page', { page: n + 1, pages }), right, y, {
      size: SIZE.small,
      color: MUTED,
      align: 'right',
    });
  });

  return doc.save();
}

/** A file name for the pro-forma of this order: letters, digits and dashes only. */
export function proFormaFileName(reference: ProFormaOptions['reference']): string {
  const value = 'orderNumber' in reference ? reference.orderNumber : reference.localReference;
  return `proforma-${value.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'order'}.pdf`;
}

/** How long a download's object URL is kept: the browser has read it well before. */
const REVOKE_AFTER_MS = 60_000;

/**
 * Hands the file to the device's share sheet (mail, messaging, print) where the browser can
 * share files, else downloads it. What happened: shared, downloaded, or cancelled (the
 * share sheet was closed). A browser that refuses to share (no user gesture left after a
 * long build) gets the download instead.
 */
export async function shareOrDownload(
  bytes: Uint8Array,
  fileName: string,
): Promise<'shared' | 'downloaded' | 'cancelled'> {
  const file = new File([bytes as Uint8Array<ArrayBuffer>], fileName, { type: 'application/pdf' });
  if (typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: fileName });
      return 'shared';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
      // Not allowed here: downloaded instead.
    }
  }
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  return 'downloaded';
}
