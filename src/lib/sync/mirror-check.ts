/**
 * Checks the lines of the catalogue's answer (GET /api/products/mirror) as they arrive,
 * against the schemas the server answers with (src/contracts/catalogue-schemas.ts). A
 * product that does not match is not stored: the device drops its copy of it (a price it
 * cannot trust is never shown) and the refresh does not count as complete, so that the
 * next one asks again. A line that is none of the three kinds ends the refresh, as an
 * answer cut short does. Loaded with the mirror, never by a first screen.
 *
 * The check is code built from the schemas at build time (see `compiledChecks` in
 * vite.config.ts): a refresh checks thousands of products. TypeBox's checker only says
 * what is wrong with a line that failed.
 */
import isMirrorLine from 'compiled-checks:mirror-line';
import isProduct from 'compiled-checks:product';
import { Value } from 'typebox/value';
import type { MirrorLine, Product } from '../../contracts/catalogue';
import { MirrorLineSchema } from '../../contracts/catalogue-schemas';

export type CheckedLine =
  | {
      ok: true;
      /** The line, with only the products that match the schema. */
      line: MirrorLine;
      /** How many products of the line did not match. */
      damaged: number;
      /** The ids of those that still carry one: the device's copies of them are dropped. */
      damagedIds: number[];
    }
  /** A line that matches no kind of line: the answer cannot be used further. */
  | { ok: false; problem: string };

const isId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1;

/** Checks one line as it arrived (parsed JSON, nothing assumed). */
export function checkMirrorLine(raw: unknown): CheckedLine {
  if (typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'products') {
    const products = (raw as { products?: unknown }).products;
    if (!Array.isArray(products)) return { ok: false, problem: 'a products line has no products' };
    const kept: Product[] = [];
    const damagedIds: number[] = [];
    let damaged = 0;
    for (const product of products as unknown[]) {
      if (isProduct(product)) {
        kept.push(product as Product);
        continue;
      }
      damaged += 1;
      const id = (product as { id?: unknown } | null)?.id;
      if (isId(id)) damagedIds.push(id);
    }
    return { ok: true, line: { type: 'products', products: kept }, damaged, damagedIds };
  }
  if (!isMirrorLine(raw)) {
    const [first] = Value.Errors(MirrorLineSchema, raw);
    return { ok: false, problem: `${first?.instancePath || 'a line'} ${first?.message ?? ''}` };
  }
  return { ok: true, line: raw as MirrorLine, damaged: 0, damagedIds: [] };
}
