import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { verificationDisplay, type User } from '../../contracts/accounts';
import { documentsBadge } from '../../contracts/company-documents';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ScreenMeta } from '../screen-meta';
import { useUser } from '../../lib/auth/session';
import { signOut } from '../../lib/auth/session-actions';
import { formatMoney } from '../../lib/i18n';
import { useOrders, useOutbox } from '../../lib/sync/use-device-data';
import { CompanyCard, ChecklistCard, DocumentsCard } from './company-cards';
import { PersonalCard } from './personal-card';
import { profileDate } from './profile-date';
import { SettingsTab } from './settings-tab';
import { useCompanyData } from './use-company';
import '../screens.css';

const TABS = ['overview', 'orders', 'settings'] as const;
type Tab = (typeof TABS)[number];

export function ProfilePage() {
  const user = useUser();
  if (!user) return null;
  return <Profile user={user} />;
}

function Profile({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const orders = useOrders();
  // Undefined until the outbox has been read: the warning is never left out before that.
  const waiting = useOutbox()?.length;
  const navigate = useNavigate();
  const data = useCompanyData();
  const [tab, setTab] = useState<Tab>('overview');
  const [confirmLogout, setConfirmLogout] = useState(false);
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({
    overview: null,
    orders: null,
    settings: null,
  });
  const baseId = useId();
  const display = verificationDisplay(user.company);
  const badge = documentsBadge(data.documents, data.company?.documentsRejected ?? 0);

  const onTabKey = (event: KeyboardEvent) => {
    const index = TABS.indexOf(tab);
    const next =
      event.key === 'ArrowRight'
        ? TABS[(index + 1) % TABS.length]
        : event.key === 'ArrowLeft'
          ? TABS[(index + TABS.length - 1) % TABS.length]
          : event.key === 'Home'
            ? TABS[0]
            : event.key === 'End'
              ? TABS[TABS.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    setTab(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <div className="page profile">
      <ScreenMeta
        title={t('profile.title')}
        description={t('profile.description')}
        path="/profile"
      />
      <header className="profile__header">
        <div>
          <h1>
            {user.firstName} {user.lastName}
          </h1>
          <p className="profile__company">
            {user.company?.name}{' '}
            <span className={`chip chip--${display}`}>{t(`company.status.${display}`)}</span>
          </p>
          <p className="profile__meta">
            {user.email} · {t('profile.memberSince', { date: profileDate(user.createdAt) })}
          </p>
        </div>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => setConfirmLogout(true)}
        >
          {t('nav.logout')}
        </button>
      </header>

      <ul className="tiles">
        <li>
          <span className="tiles__label">{t('profile.tiles.orders')}</span>
          <span className="tiles__value">
            {orders?.filter((o) => o.state === 'synced').length ?? '—'}
          </span>
        </li>
        <li>
          <span className="tiles__label">{t('profile.tiles.status')}</span>
          <span className="tiles__value">{t(`company.status.${display}`)}</span>
        </li>
        <li>
          <span className="tiles__label">{t('profile.tiles.registered')}</span>
          <span className="tiles__value">{profileDate(user.createdAt)}</span>
        </li>
        <li>
          <span className="tiles__label">{t('profile.tiles.email')}</span>
          <span className="tiles__value tiles__value--small">{user.email}</span>
        </li>
      </ul>

      <div role="tablist" aria-label={t('profile.tabsLabel')} className="tabs">
        {TABS.map((name) => (
          <button
            key={name}
            ref={(element) => {
              tabRefs.current[name] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`${baseId}-panel-${name}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            onKeyDown={onTabKey}
          >
            {t(`profile.tabs.${name}`)}
          </button>
        ))}
      </div>

      <div
        role="tabpanel"
        id={`${baseId}-panel-${tab}`}
        aria-labelledby={`${baseId}-tab-${tab}`}
        className="tabs__panel"
        tabIndex={0}
      >
        {tab === 'overview' && (
          <div className="card-grid">
            <PersonalCard user={user} />
            <ChecklistCard user={user} badge={badge} company={data.company} />
            <CompanyCard data={data} />
            <DocumentsCard data={data} badge={badge} />
          </div>
        )}
        {tab === 'orders' && (
          <section className="card">
            <h2>{t('profile.tabs.orders')}</h2>
            {display !== 'verified' ? (
              <p>{t('profile.ordersNeedVerification')}</p>
            ) : !orders || orders.length === 0 ? (
              <p>{t('orders.emptyTitle')}</p>
            ) : (
              <table className="order-table">
                <thead>
                  <tr>
                    <th scope="col">{t('orders.numberLabel')}</th>
                    <th scope="col">{t('orders.created')}</th>
                    <th scope="col">{t('orders.statusLabel')}</th>
                    <th scope="col">{t('orders.total')}</th>
                  </tr>
                </thead>
                <tbody>
                  {orders.map((stored) => (
                    <tr key={stored.ref}>
                      <td>
                        {stored.state === 'synced' ? stored.order.orderNumber : stored.localRef}
                      </td>
                      <td>{profileDate(stored.order.createdAt)}</td>
                      <td>
                        {stored.state === 'synced'
                          ? t(`orders.status.${stored.order.status}`)
                          : t(`orders.local.${stored.state}`)}
                      </td>
                      <td>{formatMoney(stored.order.total, i18n.language)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <Link to="/orders">{t('profile.allOrders')}</Link>
          </section>
        )}
        {tab === 'settings' && <SettingsTab user={user} />}
      </div>

      <ConfirmDialog
        open={confirmLogout}
        title={t('profile.logoutTitle')}
        confirmLabel={t('nav.logout')}
        cancelLabel={t('common.cancel')}
        busy={waiting === undefined}
        onCancel={() => setConfirmLogout(false)}
        onConfirm={() => {
          setConfirmLogout(false);
          void signOut().then(() => navigate('/'));
        }}
      >
        <p>{t('profile.logoutText')}</p>
        {waiting === undefined ? (
          <p role="status">{t('signOut.checking')}</p>
        ) : (
          waiting > 0 && (
            <p className="notice notice--offline">{t('signOut.waiting', { count: waiting })}</p>
          )
        )}
      </ConfirmDialog>
    </div>
  );
}
