/**
 * The pieces every staff list is made of (companies, orders, products, mail, the audit
 * log): its filters (a search, filters by a fixed set of values, "Clear"), a column header
 * that sorts, and its results: how the read stands, then a page with its count, its table
 * and its pager. The list's state lives in the address (see ./staff-urls), so each piece
 * reports a change and the page writes the address.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { SortOrder } from '../../contracts/admin';
import { LastPage, pastLastPage, StaffDataNotice, StaffPager } from './staff-page';
import { StaffSearch } from './staff-search';
import { TableScroll } from './table-scroll';
import type { StaffData } from './use-staff-data';

/**
 * Where a list's texts are: its search (`search`, `searchButton`, `searchHint`), `clear`,
 * and its results (`count`, `empty`).
 */
type ListTexts = 'admin.companies' | 'admin.mail' | 'admin.orders' | 'admin.catalogue.list';

/** The filters of a list: its search, the list's own filters, and "Clear" while any is set. */
export function StaffFilters({
  texts,
  searchId,
  search,
  onSearch,
  clearTo,
  children,
}: {
  texts: ListTexts;
  /** The search field's id. */
  searchId: string;
  /** The search in the address. */
  search: string;
  onSearch: (search: string) => void;
  /** The list's address without its filters; none while no filter is set. */
  clearTo: string | undefined;
  /** The list's own filters. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="staff-filters">
      <StaffSearch
        id={searchId}
        value={search}
        label={t(`${texts}.search`)}
        button={t(`${texts}.searchButton`)}
        hint={t(`${texts}.searchHint`)}
        onSearch={onSearch}
      />
      {children}
      {clearTo !== undefined && (
        <Link className="button button--ghost staff-filters__clear" to={clearTo}>
          {t(`${texts}.clear`)}
        </Link>
      )}
    </div>
  );
}

/** A filter of the list: "all" (the empty value) or one of the options. */
export function FilterSelect({
  id,
  label,
  allLabel,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  allLabel: string;
  /** The chosen option's value, '' for all. */
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A column header that sorts the list by its column: a first click sorts in the column's
 * natural order (newest, A to Z, largest), the next ones turn the order around.
 */
export function SortHeader<S extends string>({
  column,
  label,
  sortBy,
  sortOrder,
  firstOrder,
  onSort,
}: {
  column: S;
  label: string;
  sortBy: S;
  sortOrder: SortOrder;
  firstOrder: Record<S, SortOrder>;
  onSort: (sort: { sortBy: S; sortOrder: SortOrder }) => void;
}) {
  const current = sortBy === column;
  const turned = sortOrder === 'asc' ? 'desc' : 'asc';
  return (
    <th
      scope="col"
      aria-sort={current ? (sortOrder === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      <button
        type="button"
        className="staff-sort"
        onClick={() => onSort({ sortBy: column, sortOrder: current ? turned : firstOrder[column] })}
      >
        {label}
        <span aria-hidden="true">{current ? (sortOrder === 'asc' ? ' ↑' : ' ↓') : ''}</span>
      </button>
    </th>
  );
}

/** The sort headers of one list: `sortHeader(column, label)` for each column that sorts. */
export function sortHeaders<S extends string>(
  view: { sortBy: S; sortOrder: SortOrder },
  firstOrder: Record<S, SortOrder>,
  onSort: (sort: { sortBy: S; sortOrder: SortOrder }) => void,
) {
  return (column: S, label: string) => (
    <SortHeader
      column={column}
      label={label}
      sortBy={view.sortBy}
      sortOrder={view.sortOrder}
      firstOrder={firstOrder}
      onSort={onSort}
    />
  );
}

/** A staff table, named by its caption (read by screen readers, not shown). */
export function StaffTable({
  captionId,
  caption,
  className,
  head,
  children,
}: {
  captionId: string;
  caption: string;
  /** Another class beside `staff-table`. */
  className?: string;
  /** The header row's cells. */
  head: ReactNode;
  /** The rows. */
  children: ReactNode;
}) {
  return (
    <TableScroll labelledBy={captionId}>
      <table className={className ? `staff-table ${className}` : 'staff-table'}>
        <caption id={captionId} className="visually-hidden">
          {caption}
        </caption>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  );
}

/**
 * A list's results: how its read stands (loading, offline, failed), then, once the server
 * has answered, that page of the list with the table `children` makes of it.
 */
export function StaffResults<
  Page extends { pagination: { page: number; totalPages: number; total: number } },
>({
  texts,
  result,
  shown,
  hrefFor,
  children,
}: {
  texts: ListTexts | 'admin.audit';
  result: StaffData<Page>;
  /** How many rows a page has. */
  shown: (page: Page) => number;
  hrefFor: (page: number) => string;
  /** The table of a page. */
  children: (page: Page) => ReactNode;
}) {
  const { t } = useTranslation();
  const page = result.data;
  return (
    <>
      <StaffDataNotice result={result} />
      {page && (
        <StaffListPage
          pagination={page.pagination}
          shown={shown(page)}
          count={t(`${texts}.count`, { count: page.pagination.total })}
          empty={t(`${texts}.empty`)}
          hrefFor={hrefFor}
        >
          {children(page)}
        </StaffListPage>
      )}
    </>
  );
}

/**
 * One page of a list: how many match, the table (or "nothing found") and the pager. A page
 * past the last (a filter, or another clerk's change, made the list shorter) goes to the
 * last page, so that a list never reads "Page 3 of 2".
 */
function StaffListPage({
  pagination,
  shown,
  count,
  empty,
  hrefFor,
  children,
}: {
  pagination: { page: number; totalPages: number };
  /** How many rows this page has. */
  shown: number;
  /** "12 orders". */
  count: string;
  /** Said in place of the table when nothing matches. */
  empty: string;
  hrefFor: (page: number) => string;
  /** The table. */
  children: ReactNode;
}) {
  if (pastLastPage(pagination)) {
    return <LastPage totalPages={pagination.totalPages} hrefFor={hrefFor} />;
  }
  return (
    <>
      <p className="staff-count" role="status">
        {count}
      </p>
      {shown === 0 ? <p className="empty-state">{empty}</p> : children}
      <StaffPager page={pagination.page} totalPages={pagination.totalPages} hrefFor={hrefFor} />
    </>
  );
}
