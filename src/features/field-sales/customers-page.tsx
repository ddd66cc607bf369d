/**
 * A sales rep's customers (docs/product.md#field-sales): the companies assigned to it, as
 * kept on the device, searchable offline; read again from the server whenever the page
 * opens online. Choosing one makes the rep order for it until it chooses another.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { Fragment, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Banner } from '../../components/banner';
import { ScreenMeta } from '../screen-meta';
import { BOOTH_DETAIL_FIELDS, type RepCustomer } from '../../contracts/field-sales';
import { useUser } from '../../lib/auth/session';
import { formatDateTime, formatTime } from '../../lib/i18n';
import { isNetworkError } from '../../lib/api/errors';
import { useConnectivity } from '../../lib/sync/connectivity';
import {
  chooseCustomer,
  dismissBoothDetails,
  readActingFor,
  readCustomers,
  readCustomersFromServer,
} from '../../lib/sync/rep-customers';
import { COUNTRIES } from '../../contracts/validation';
import { useDeviceWrite } from '../use-device-write';
import './customers.css';

type Refresh = 'reading' | 'done' | 'offline' | 'failed';

export function CustomersPage() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const userId = user?.id ?? null;
  const navigate = useNavigate();
  // The name of a salon just registered at the booth (./new-customer-page).
  const registered = (useLocation().state as { registered?: string } | null)?.registered;
  const connectivity = useConnectivity();
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [refresh, setRefresh] = useState<Refresh>('reading');
  const write = useDeviceWrite('sync');
  // A country as the wizard keeps it (in English), in the language of the screen.
  const countryName = (country: string) =>
    (COUNTRIES as readonly string[]).includes(country)
      ? t(`countries.${country as (typeof COUNTRIES)[number]}`)
      : country;

  useEffect(() => {
    if (connectivity === 'offline') {
      setRefresh('offline');
      return;
    }
    let current = true;
    setRefresh('reading');
    readCustomersFromServer().then(
      () => current && setRefresh('done'),
      (error: unknown) => current && setRefresh(isNetworkError(error) ? 'offline' : 'failed'),
    );
    return () => {
      current = false;
    };
  }, [connectivity, userId]);

  const customers = useLiveQuery(() => readCustomers(userId, search), [userId, search]);
  const everyone = useLiveQuery(() => readCustomers(userId), [userId]);
  const actingFor = useLiveQuery(() => readActingFor(userId), [userId]);
  const keptAt = everyone?.reduce<string | null>(
    (oldest, stored) => (oldest === null || stored.syncedAt < oldest ? stored.syncedAt : oldest),
    null,
  );

  const orderFor = async (customer: RepCustomer) => {
    if (userId === null) return;
    await chooseCustomer(userId, customer.id);
    void navigate('/products');
  };

  return (
    <div className="page rep-customers">
      <ScreenMeta
        title={t('fieldSales.customers.title')}
        description={t('fieldSales.customers.description')}
        path="/rep"
      />
      <h1>{t('fieldSales.customers.title')}</h1>
      <p className="page__lead">{t('fieldSales.customers.description')}</p>
      {registered && (
        <Banner kind="success">
          {t('fieldSales.newCustomer.registered', { name: registered })}
        </Banner>
      )}
      <p>
        <Link className="button button--ghost" to="/rep/customers/new">
          {t('fieldSales.newCustomer.link')}
        </Link>
      </p>

      <p className="rep-customers__kept" role="status">
        {refresh === 'reading'
          ? t('fieldSales.customers.reading')
          : refresh === 'done'
            ? t('fieldSales.customers.current')
            : keptAt
              ? t(
                  refresh === 'offline'
                    ? 'fieldSales.customers.keptOffline'
                    : 'fieldSales.customers.keptFailed',
                  { date: formatTime(keptAt, i18n.language) },
                )
              : t(
                  refresh === 'offline'
                    ? 'fieldSales.customers.noneKeptOffline'
                    : 'fieldSales.customers.noneKeptFailed',
                )}
      </p>

      <div className="form-field rep-customers__search">
        <label htmlFor={searchId}>{t('fieldSales.customers.search')}</label>
        <input
          id={searchId}
          type="search"
          value={search}
          autoComplete="off"
          aria-describedby={`${searchId}-hint`}
          onChange={(event) => setSearch(event.target.value)}
        />
        <p id={`${searchId}-hint`} className="form-field__hint">
          {t('fieldSales.customers.searchHint')}
        </p>
      </div>

      {customers === undefined ? null : customers.length === 0 ? (
        <p className="empty-state">
          {everyone?.length
            ? t('fieldSales.customers.noMatch', { search })
            : t('fieldSales.customers.none')}
        </p>
      ) : (
        <>
          <p className="rep-customers__count">
            {t('fieldSales.customers.count', { count: customers.length })}
          </p>
          <ul className="rep-customers__list">
            {customers.map(({ customer, boothDetails }) => {
              const chosen = actingFor?.id === customer.id;
              return (
                <li key={customer.id}>
                  <article
                    className={`card rep-customer${chosen ? ' rep-customer--chosen' : ''}`}
                    aria-labelledby={`rep-customer-${customer.id}`}
                    data-testid="rep-customer"
                  >
                    <h2 id={`rep-customer-${customer.id}`}>{customer.name}</h2>
                    <p>
                      <span className={`chip chip--${customer.status.toLowerCase()}`}>
                        {t(`admin.status.${customer.status}`)}
                      </span>
                      {customer.id < 0 && (
                        <>
                          {' '}
                          <span className="chip">{t('fieldSales.newCustomer.waiting')}</span>
                        </>
                      )}
                    </p>
                    <p>
                      {[customer.address, customer.postalCode, customer.city, customer.country]
                        .filter(Boolean)
                        .join(', ')}
                    </p>
                    <dl className="details">
                      {customer.taxNumber && (
                        <>
                          <dt>{t('fieldSales.customers.taxNumber')}</dt>
                          <dd>{customer.taxNumber}</dd>
                        </>
                      )}
                      {(customer.phone || customer.email) && (
                        <>
                          <dt>{t('fieldSales.customers.contact')}</dt>
                          <dd>
                            {customer.phone && (
                              <a href={`tel:${customer.phone.replace(/\s/g, '')}`}>
                                {customer.phone}
                              </a>
                            )}
                            {customer.phone && customer.email && ' · '}
                            {customer.email && (
                              <a href={`mailto:${customer.email}`}>{customer.email}</a>
                            )}
                          </dd>
                        </>
                      )}
                      {customer.contacts.length > 0 && (
                        <>
                          <dt>{t('fieldSales.customers.people')}</dt>
                          <dd>
                            {customer.contacts
                              .map((contact) => `${contact.firstName} ${contact.lastName}`.trim())
                              .join(', ')}
                          </dd>
                        </>
                      )}
                      <dt>{t('fieldSales.customers.lastOrder')}</dt>
                      <dd>
                        {customer.lastOrderAt
                          ? formatDateTime(customer.lastOrderAt, i18n.language)
                          : t('fieldSales.customers.noOrders')}
                      </dd>
                      <dt>{t('fieldSales.customers.openOrders')}</dt>
                      <dd>{customer.openOrders}</dd>
                    </dl>
                    {boothDetails && userId !== null && (
                      <div className="notice" data-testid="booth-details">
                        <p>{t('fieldSales.customers.boothDetails.title')}</p>
                        <dl className="details">
                          {BOOTH_DETAIL_FIELDS.filter((field) => boothDetails[field]).map(
                            (field) => (
                              <Fragment key={field}>
                                <dt>{t(`wizard.fields.${field}`)}</dt>
                                <dd>
                                  {field === 'country'
                                    ? countryName(boothDetails[field] ?? '')
                                    : boothDetails[field]}
                                </dd>
                              </Fragment>
                            ),
                          )}
                        </dl>
                        <p className="hint">{t('fieldSales.customers.boothDetails.hint')}</p>
                        <button
                          type="button"
                          className="button button--ghost button--small"
                          onClick={() => void write(dismissBoothDetails(userId, customer.id))}
                        >
                          {t('fieldSales.customers.boothDetails.dismiss')}
                        </button>
                      </div>
                    )}
                    <div className="card__actions">
                      {chosen ? (
                        <p className="rep-customer__chosen">
                          {t('fieldSales.customers.orderingNow')}
                        </p>
                      ) : (
                        <button
                          type="button"
                          className="button"
                          onClick={() => void orderFor(customer)}
                        >
                          {t('fieldSales.customers.orderFor', { name: customer.name })}
                        </button>
                      )}
                    </div>
                  </article>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}
