/**
 * Paging and searching the back office's lists: which rows a page holds, how an answer
 * describes it, and which rows hold what was searched for.
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { ADMIN_PAGE_SIZE, type AdminPagination } from '../../src/contracts/admin.js';

export interface PageQuery {
  page?: number | undefined;
  limit?: number | undefined;
}

export interface Page {
  page: number;
  limit: number;
  /** Rows before the page's first. */
  offset: number;
}

export function pageOf(query: PageQuery): Page {
  const page = query.page ?? 1;
  const limit = query.limit ?? ADMIN_PAGE_SIZE;
  return { page, limit, offset: (page - 1) * limit };
}

/** A page past the last is answered empty, with the same totals. */
export function paginationOf({ page, limit }: Page, total: number): AdminPagination {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}

/**
 * Rows whose `column` holds `search` anywhere, as typed: `%`, `_` and `\` are no wildcards.
 * `fold` is the database function the column's text went through (`lower`, or
 * `search_fold` of migration 0021), and the search goes through it too.
 */
export function containing(column: SQLWrapper, fold: 'lower' | 'search_fold', search: string): SQL {
  const literal = search.replace(/[\\%_]/g, '\\$&');
  return sql`${column} LIKE '%' || ${sql.raw(fold)}(${literal}) || '%' ESCAPE '\\'`;
}
