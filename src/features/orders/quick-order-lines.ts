/**
 * A quick order's lines (docs/product.md#quick-order): read from pasted text or from a CSV
 * file, then checked against the device's catalogue and the cart, every line with its own
 * problem, before anything is added. No storage and no DOM here: the page reads the
 * catalogue and the cart, and adds what this module allows.
 */
import type { Product } from '../../contracts/catalogue';
import { foldText } from '../../contracts/catalogue-query';
import { MAX_ORDER_LINES } from '../../contracts/field-sales';
import { MAX_LINE_QUANTITY } from '../../contracts/orders';

/**
 * Most lines in one quick order: a salon's largest orders hold a few dozen; a file of
 * thousands is a mistake (a whole price list), and every line is checked as it is typed.
 */
export const MAX_QUICK_ORDER_LINES = 200;

/** A line as entered: its SKU and quantity as typed, and where it was read from. */
export interface EnteredLine {
  sku: string;
  quantity: string;
  /** The line of the pasted text or of the file it was read from, from 1. */
  source?: number | undefined;
  /** Not readable as a SKU and a quantity: `sku` holds the whole line as it was. */
  unreadable?: boolean | undefined;
}

/** Why a file gave no lines: no SKU or quantity column in its header, or nothing in it. */
export type ReadProblem = 'columns' | 'empty';

export type ReadResult = { ok: true; lines: EnteredLine[] } | { ok: false; problem: ReadProblem };

/** Header names of the SKU column and of the quantity column, folded (see foldText). */
const SKU_HEADERS = new Set(['sku', 'code', 'cod', 'codice']);
const QUANTITY_HEADERS = new Set(['quantity', 'qty', 'cantitate', 'quantita', 'qta']);

/**
 * The fields of one record of `text` from `start`, separated by `separator`; a field in
 * double quotes may hold the separator, line breaks and doubled quotes. Returns the fields
 * and where the next record starts.
 */
function record(
  text: string,
  start: number,
  separator: string,
): { fields: string[]; next: number } {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  let i = start;
  for (; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (char === separator) {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      break;
    } else field += char;
  }
  fields.push(field);
  // A line ends with \n, \r\n or \r.
  const next = text[i] === '\r' && text[i + 1] === '\n' ? i + 2 : i + 1;
  return { fields: fields.map((f) => f.trim()), next };
}

/** Every record of `text`, with the line each starts on; records with nothing in them left out. */
function records(
  text: string,
  separatorOf: (line: string) => string,
): { fields: string[]; line: number; separator: string }[] {
  const found: { fields: string[]; line: number; separator: string }[] = [];
  const clean = text.replace(/^\uFEFF/, '');
  let at = 0;
  let line = 1;
  const lineBreak = /\r|\n/g;
  while (at < clean.length) {
    lineBreak.lastIndex = at;
    const end = lineBreak.exec(clean)?.index ?? clean.length;
    const separator = separatorOf(clean.slice(at, end));
    const { fields, next } = record(clean, at, separator);
    if (fields.some((field) => field !== '')) found.push({ fields, line, separator });
    // A quoted field may have spanned lines: count every line break consumed.
    line += (clean.slice(at, next).match(/\r\n|\r|\n/g) ?? []).length;
    at = next;
  }
  return found;
}

/** The positions of the SKU and quantity columns a header names, if `fields` is a header. */
function headerOf(fields: readonly string[]): { sku: number; quantity: number } | null {
  const names = fields.map((field) => foldText(field));
  const sku = names.findIndex((name) => SKU_HEADERS.has(name));
  const quantity = names.findIndex((name) => QUANTITY_HEADERS.has(name));
  if (sku === -1 && quantity === -1) return null;
  return { sku, quantity };
}

/**
 * The lines of a table: a first record naming its columns is a header (`sku`, and
 * `quantity` or `qty`, in any order among others); without one, the SKU comes first and
 * the quantity second. `strict`: a record with more fields than these two is unreadable.
 */
function linesOf(rows: { fields: string[]; line: number }[], strict: boolean): ReadResult {
  const header = rows[0] ? headerOf(rows[0].fields) : null;
  if (header && (header.sku === -1 || header.quantity === -1)) {
    return { ok: false, problem: 'columns' };
  }
  const body = header ? rows.slice(1) : rows;
  if (body.length === 0) return { ok: false, problem: 'empty' };
  const columns = header ?? { sku: 0, quantity: 1 };
  return {
    ok: true,
    lines: body.map(({ fields, line }) => {
      const filled = fields.filter((field) => field !== '');
      if (!header && strict && filled.length > 2) {
        return { sku: fields.join(' ').trim(), quantity: '', source: line, unreadable: true };
      }
      const cells = strict && !header ? filled : fields;
      return {
        sku: cells[columns.sku] ?? '',
        quantity: cells[columns.quantity] ?? '',
        source: line,
      };
    }),
  };
}

/**
 * Lines pasted from anywhere — a spreadsheet, an e-mail, a note — one product a line:
 * "SKU qty", "SKU;qty", "SKU,qty" or "SKU<tab>qty" (each line read by its own separator:
 * a tab, else a semicolon, else a comma, else spaces), with an optional header line.
 */
export function readPastedLines(text: string): ReadResult {
  const separatorOf = (line: string) =>
    line.includes('\t') ? '\t' : line.includes(';') ? ';' : line.includes(',') ? ',' : ' ';
  const rows = records(text, separatorOf).map(({ fields, line, separator }) => ({
    // Spaces between two fields are one separator, however many there are.
    fields: separator === ' ' ? fields.filter((field) => field !== '') : fields,
    line,
  }));
  return linesOf(rows, true);
}

/**
 * A CSV file: columns `sku` and `quantity` (or `qty`), named in a header line or else the
 * first two; fields separated by commas or semicolons (as a spreadsheet saves them where
 * the comma is the decimal sign), the file's first line telling which.
 */
export function readCsv(text: string): ReadResult {
  const first = text
    .replace(/^\uFEFF/, '')
    .split(/\r|\n/)
    .find((line) => line.trim() !== '');
  if (first === undefined) return { ok: false, problem: 'empty' };
  const separator = first.includes(';') ? ';' : first.includes(',') ? ',' : '\t';
  return linesOf(
    records(text, () => separator),
    false,
  );
}

/** The line is blank: nothing typed in it, and it is left out. */
export const isBlank = (line: EnteredLine): boolean =>
  line.sku.trim() === '' && line.quantity.trim() === '';

/** A problem with what a line names. */
export type SkuProblem =
  'unreadable' | 'skuMissing' | 'unknownSku' | 'notSold' | 'noPrice' | 'outOfStock';

/** A problem with how many a line asks for. */
export type QuantityProblem = 'quantityMissing' | 'quantityInvalid' | 'allInCart' | 'overStock';

export interface LineCheck {
  /** The product the line names, when the catalogue has it. */
  product?: Product | undefined;
  sku?: SkuProblem | undefined;
  quantity?: QuantityProblem | undefined;
  /** For allInCart and overStock: the stock, what the cart holds, what may still go in. */
  stock?: number | undefined;
  inCart?: number | undefined;
  available?: number | undefined;
  /** What the lines of this product ask for together. */
  asked?: number | undefined;
  /** The other lines of the same product (their indexes): their quantities are added up. */
  sameAs?: number[] | undefined;
}

export interface QuickOrderCheck {
  /** One per line entered, in their order; a blank line has nothing to say. */
  lines: LineCheck[];
  /** The lines filled in. */
  filled: number;
  /** The lines with a problem. */
  wrong: number;
  /** What goes into the cart when no line is wrong: one addition per product. */
  additions: { productId: number; quantity: number }[];
  /**
   * When the additions would make the cart hold more products than an order takes
   * (MAX_ORDER_LINES): how many new products they bring, and how many more fit.
   */
  tooManyProducts?: { max: number; adding: number; room: number } | undefined;
}

/** The catalogue as a quick order reads it. */
export interface QuickOrderCatalogue {
  /** Its products by SKU (skuKey). */
  bySku: ReadonlyMap<string, Product>;
  /** SKUs (skuKey) the salon ordered or holds in its cart that the catalogue no longer sells. */
  noLongerSold: ReadonlySet<string>;
}

/** A SKU as lines and the catalogue are matched by: case, accents and spaces ignored. */
export const skuKey = (sku: string): string => foldText(sku);

/** A quantity typed: a whole number of at least 1, else why not. */
function quantityOf(typed: string): number | QuantityProblem {
  const text = typed.trim();
  if (text === '') return 'quantityMissing';
  if (!/^\d+$/.test(text) || Number(text) < 1) return 'quantityInvalid';
  return Number(text);
}

/**
 * Checks every line against the catalogue and what the cart holds (`inCart`, by product
 * id). A product named on several lines is one addition of all their quantities, checked
 * against its stock together; every one of its lines says so.
 */
export function checkLines(
  lines: readonly EnteredLine[],
  catalogue: QuickOrderCatalogue,
  inCart: ReadonlyMap<number, number>,
): QuickOrderCheck {
  const checks: LineCheck[] = lines.map(() => ({}));
  const wanted = new Map<number, { indexes: number[]; quantity: number; product: Product }>();
  lines.forEach((line, index) => {
    const check = checks[index] as LineCheck;
    if (isBlank(line)) return;
    const quantity = quantityOf(line.quantity);
    if (typeof quantity !== 'number') check.quantity = quantity;
    if (line.unreadable) {
      check.sku = 'unreadable';
      check.quantity = undefined;
      return;
    }
    const key = skuKey(line.sku);
    if (key === '') {
      check.sku = 'skuMissing';
      return;
    }
    const product = catalogue.bySku.get(key);
    if (!product) {
      check.sku = catalogue.noLongerSold.has(key) ? 'notSold' : 'unknownSku';
      return;
    }
    check.product = product;
    if (product.price === undefined) check.sku = 'noPrice';
    else if (product.stock <= 0) check.sku = 'outOfStock';
    if (check.sku || typeof quantity !== 'number') return;
    const same = wanted.get(product.id);
    if (same) {
      same.indexes.push(index);
      same.quantity += quantity;
    } else wanted.set(product.id, { indexes: [index], quantity, product });
  });
  const additions: QuickOrderCheck['additions'] = [];
  for (const { indexes, quantity, product } of wanted.values()) {
    const held = inCart.get(product.id) ?? 0;
    const available = Math.max(Math.min(product.stock, MAX_LINE_QUANTITY) - held, 0);
    for (const index of indexes) {
      const check = checks[index] as LineCheck;
      if (indexes.length > 1) check.sameAs = indexes.filter((other) => other !== index);
      if (quantity > available) {
        check.quantity = available === 0 ? 'allInCart' : 'overStock';
        Object.assign(check, { stock: product.stock, inCart: held, available, asked: quantity });
      }
    }
    if (quantity <= available) additions.push({ productId: product.id, quantity });
  }
  const filled = lines.filter((line) => !isBlank(line)).length;
  const wrong = checks.filter((check) => check.sku || check.quantity).length;
  const adding = additions.filter(({ productId }) => !inCart.has(productId)).length;
  const room = Math.max(MAX_ORDER_LINES - inCart.size, 0);
  return {
    lines: checks,
    filled,
    wrong,
    additions,
    ...(adding > room && { tooManyProducts: { max: MAX_ORDER_LINES, adding, room } }),
  };
}
