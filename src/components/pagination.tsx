import { Link } from 'react-router-dom';
import { paginationWindow } from './pagination-window';

export interface PaginationProps {
  page: number;
  totalPages: number;
  /** The link of a page, keeping the rest of the query. */
  hrefFor: (page: number) => string;
  labels: { nav: string; previous: string; next: string; page: (page: number) => string };
}

export function Pagination({ page, totalPages, hrefFor, labels }: PaginationProps) {
  if (totalPages <= 1) return null;
  const pages = paginationWindow(page, totalPages);
  return (
    <nav className="pagination" aria-label={labels.nav}>
      {page > 1 ? (
        <Link className="pagination__step" to={hrefFor(page - 1)} rel="prev">
          ‹ {labels.previous}
        </Link>
      ) : (
        <span className="pagination__step" aria-disabled="true">
          ‹ {labels.previous}
        </span>
      )}
      <ul>
        {pages.map((n) => (
          <li key={n}>
            <Link
              to={hrefFor(n)}
              aria-label={labels.page(n)}
              aria-current={n === page ? 'page' : undefined}
              className={n === page ? 'is-current' : undefined}
            >
              {n}
            </Link>
          </li>
        ))}
      </ul>
      {page < totalPages ? (
        <Link className="pagination__step" to={hrefFor(page + 1)} rel="next">
          {labels.next} ›
        </Link>
      ) : (
        <span className="pagination__step" aria-disabled="true">
          {labels.next} ›
        </span>
      )}
    </nav>
  );
}
