import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { canSeePrices } from '../contracts/accounts';
import { BRAND } from '../contracts/brand';
import { useSession } from '../lib/auth/session';

/**
 * The guard of signed-in pages (docs/product.md#routes): a visitor goes to /login,
 * remembering where they wanted to go; a page that needs a verified company shows why it is
 * closed.
 */
export function RequireAuth({
  children,
  verified = false,
}: {
  children: ReactNode;
  verified?: boolean;
}) {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    return (
      <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />
    );
  }
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
