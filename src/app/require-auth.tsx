import { lazy, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { canSeePrices } from '../contracts/accounts';
import { BRAND } from '../contracts/brand';
import { useSession } from '../lib/auth/session';
import { loadAllTexts } from '../lib/i18n';

/** Said to a signed-in customer who opens a back-office page: loaded with its texts. */
const StaffOnly = lazy(() =>
  Promise.all([import('./staff-only'), loadAllTexts()]).then(([m]) => ({ default: m.StaffOnly })),
);

/** Said to a staff member who opens a salon's page (cart, orders, sync). */
const SalonOnly = lazy(() =>
  Promise.all([import('./staff-only'), loadAllTexts()]).then(([m]) => ({ default: m.SalonOnly })),
);

/**
 * The guard of signed-in pages (docs/product.md#routes): a visitor goes to /login,
 * remembering where they wanted to go; a page that needs a verified company shows why it is
 * closed; a back-office page (`staff`) is only for the maker's staff, and tells anyone
 * else so. The server refuses their data to anyone else in any case.
 */
export function RequireAuth({
  children,
  verified = false,
  staff = false,
  salon = false,
}: {
  children: ReactNode;
  verified?: boolean;
  staff?: boolean;
  /** A salon's page: staff, who have no company, are sent to the back office instead. */
  salon?: boolean;
}) {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    return (
      <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />
    );
  }
  if (staff && session.user.role !== 'ADMIN') return <StaffOnly />;
  if (salon && session.user.role === 'ADMIN') return <SalonOnly />;
  if (verified && !canSeePrices(session.user.company)) return <VerificationRequired />;
  return children;
}

export function VerificationRequired() {
  const { t } = useTranslation();
  return (
    <div className="page empty-state" role="alert">
      <h1>{t('company.verificationRequired')}</h1>
      <p>{t('company.verificationRequiredText')}</p>
      <div className="hero__actions">
        <Link className="button" to="/profile">
          {t('company.checkStatus')}
        </Link>
        <a className="button button--ghost" href={`mailto:${BRAND.email}`}>
          {t('company.contactSupport')}
        </a>
      </div>
    </div>
  );
}
