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

/** Said to a staff member or a sales rep who opens a salon's page (cart, orders, sync). */
const SalonOnly = lazy(() =>
  Promise.all([import('./staff-only'), loadAllTexts()]).then(([m]) => ({ default: m.SalonOnly })),
);

/** Said to anyone but a sales rep who opens a field sales page. */
const RepOnly = lazy(() =>
  Promise.all([import('./staff-only'), loadAllTexts()]).then(([m]) => ({ default: m.RepOnly })),
);

/**
 * The guard of signed-in pages (docs/product.md#routes): a visitor goes to /login,
 * remembering where they wanted to go; a page that needs a verified company shows why it is
 * closed; a back-office page (`staff`) is only for the maker's staff, a field sales page
 * (`rep`) only for its sales reps, and a salon's page (`salon`) only for a salon's users:
 * each tells anyone else so. The server refuses their data to anyone else in any case.
 */
export function RequireAuth({
  children,
  verified = false,
  staff = false,
  rep = false,
  salon = false,
}: {
  children: ReactNode;
  verified?: boolean;
  staff?: boolean;
  rep?: boolean;
  /** A salon's page: staff and reps, who have no company, are shown where to go instead. */
  salon?: boolean;
}) {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    return (
      <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />
    );
  }
  const { role } = session.user;
  if (staff && role !== 'ADMIN') return <StaffOnly />;
  if (rep && role !== 'SALES_REP') return <RepOnly />;
  if (salon && role !== 'USER') return <SalonOnly />;
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
