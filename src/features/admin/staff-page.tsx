import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, NavLink } from 'react-router-dom';
import type { CompanyStatus } from '../../contracts/accounts';
import { ScreenMeta } from '../screen-meta';
import { failureText } from '../../lib/api/failure';
import { formatTime } from '../../lib/i18n';
import { useConnectivity } from '../../lib/sync/connectivity';
import type { StaffData } from './use-staff-data';
import '../screens.css';
import './admin.css';

/** A back-office screen: its head tags and the back office's own navigation above it. */
export function StaffPage({
  title,
  description,
  path,
  children,
}: {
  title: string;
  description: string;
  path: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="page staff">
      <ScreenMeta title={title} description={description} path={path} />
      <nav className="staff-nav" aria-label={t('admin.nav.label')}>
        <ul>
          <li>
            <NavLink to="/admin" end>
              {t('admin.nav.dashboard')}
            </NavLink>
          </li>
          <li>
            <NavLink to="/admin/companies">{t('admin.nav.companies')}</NavLink>
          </li>
          <li>
            <NavLink to="/admin/orders">{t('admin.nav.orders')}</NavLink>
          </li>
          <li>
            <NavLink to="/admin/products">{t('admin.catalogue.nav.products')}</NavLink>
          </li>
          <li>
            <NavLink to="/admin/categories">{t('admin.catalogue.nav.categories')}</NavLink>
          </li>
          <li>
            <NavLink to="/admin/audit">{t('admin.nav.audit')}</NavLink>
          </li>
          <li>
            <NavLink to="/admin/people">{t('admin.nav.people')}</NavLink>
          </li>
          <li>
            <NavLink to="/admin/mail">{t('admin.nav.mail')}</NavLink>
          </li>
        </ul>
      </nav>
      {children}
    </div>
  );
}

/** True when changes cannot be sent: the server cannot be reached. */
export function useOffline(): boolean {
  return useConnectivity() === 'offline';
}

/**
 * How a screen's data stands, said above it: loading; offline (nothing is kept on the
 * device, so there is nothing to show, or what is shown is marked as read earlier); a read
 * that failed, with "Try again".
 */
export function StaffDataNotice({ result }: { result: StaffData<unknown> }) {
  const { t, i18n } = useTranslation();
  const offline = useOffline() || result.failure?.kind === 'offline';
  const { data, readAt, failure, loading } = result;
  if (data !== undefined && readAt) {
    const time = formatTime(readAt, i18n.language);
    if (offline) {
      return (
        <p className="notice notice--offline" role="status">
          {t('admin.staleOffline', { time })}
        </p>
      );
    }
    if (failure) {
      return (
        <div className="notice notice--offline" role="alert">
          <p>
            {failureText(t, failure, {
              offline: t('admin.offline'),
              refused: t('admin.loadFailed'),
            })}{' '}
            {t('admin.staleFailed', { time })}
          </p>
          <button type="button" className="button button--small" onClick={result.reload}>
            {t('admin.retry')}
          </button>
        </div>
      );
    }
    return null;
  }
  if (offline) {
    return (
      <p className="notice notice--offline" role="status">
        {t('admin.offline')}
      </p>
    );
  }
  if (failure && !loading) {
    return (
      <div className="error-box" role="alert">
        <p>
          {failureText(t, failure, { offline: t('admin.offline'), refused: t('admin.loadFailed') })}
        </p>
        <button type="button" className="button" onClick={result.reload}>
          {t('admin.retry')}
        </button>
      </div>
    );
  }
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {t('app.loading')}
    </p>
  );
}

/** A company's status as a chip, in the words staff use. */
export function CompanyStatusChip({ status }: { status: CompanyStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`chip chip--company-${status.toLowerCase()}`}>
      {t(`admin.status.${status}`)}
    </span>
  );
}

/**
 * The pages of a staff list: previous, next and where the list stands. Not the catalogue's
 * numbered pagination: sharing that component would take it out of the catalogue's chunk
 * into one of its own, an extra request on every first visit of the catalogue.
 */
export function StaffPager({
  page,
  totalPages,
  hrefFor,
}: {
  page: number;
  totalPages: number;
  hrefFor: (page: number) => string;
}) {
  const { t } = useTranslation();
  if (totalPages <= 1) return null;
  const step = (to: number, label: string, rel: 'prev' | 'next') =>
    to >= 1 && to <= totalPages ? (
      <Link className="pagination__step" to={hrefFor(to)} rel={rel}>
        {label}
      </Link>
    ) : (
      <span className="pagination__step" aria-disabled="true">
        {label}
      </span>
    );
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      {step(page - 1, `‹ ${t('pagination.previous')}`, 'prev')}
      <span aria-current="page">{t('admin.pageOf', { page, total: totalPages })}</span>
      {step(page + 1, `${t('pagination.next')} ›`, 'next')}
    </nav>
  );
}

/** Whether a list's page lies past its last page (an item went away, an old link). */
export const pastLastPage = (pagination: { page: number; totalPages: number }): boolean =>
  pagination.page > Math.max(1, pagination.totalPages);

/**
 * Goes to a list's last page (the first, when the list is empty) in place of a page past
 * it, so that a list never reads "Page 3 of 2".
 */
export function LastPage({
  totalPages,
  hrefFor,
}: {
  totalPages: number;
  hrefFor: (page: number) => string;
}) {
  return <Navigate replace to={hrefFor(Math.max(1, totalPages))} />;
}
