/** Paging of the back office's lists: which rows a page holds, and how an answer describes it. */
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
