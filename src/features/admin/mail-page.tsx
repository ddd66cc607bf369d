import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { MAIL_STATUSES, type AdminMailRow } from '../../contracts/mail';
import { fetchAdminMail } from '../../lib/api/admin-mail';
import { formatDateTime } from '../../lib/i18n';
import { useUrlQuery } from '../../lib/use-url-query';
import { FilterSelect, StaffFilters, StaffResults, StaffTable } from './staff-list';
import { StaffPage } from './staff-page';
import { applyMailChange, mailQuery, readMailUrl, writeMailUrl, type MailView } from './staff-urls';
import { useStaffData } from './use-staff-data';

const SEARCH_ID = 'staff-mail-search';
const STATUS_ID = 'staff-mail-status';

/** The chip of each status, in the colours the storefront's states use. */
const CHIP: Record<AdminMailRow['status'], string> = {
  waiting: 'chip chip--pending',
  sent: 'chip chip--approved',
  failed: 'chip chip--rejected',
};

/** How a message stands: its chip, and for one that failed an attempt, how often and why. */
export function MessageStatus({ message }: { message: AdminMailRow }) {
  const { t, i18n } = useTranslation();
  const retry = message.status === 'waiting' && message.attempts > 0 && message.nextAttemptAt;
  return (
    <>
      <span className={CHIP[message.status]}>{t(`admin.mail.status.${message.status}`)}</span>
      {message.status !== 'sent' && message.lastError && (
        <span className="staff-mail__error">
          {t('admin.mail.attempts', { count: message.attempts })}
          {retry &&
            ` · ${t('admin.mail.nextAttempt', {
              time: formatDateTime(message.nextAttemptAt ?? '', i18n.language),
            })}`}
          <br />
          {message.lastError}
        </span>
      )}
    </>
  );
}

export function MailPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useUrlQuery();
  const view = readMailUrl(params);
  const query = mailQuery(view);
  const list = useStaffData(JSON.stringify(query), (signal) => fetchAdminMail(query, signal));
  const go = (change: Partial<MailView>) =>
    setParams((current) => applyMailChange(current, change));
  return (
    <StaffPage
      title={t('admin.mail.title')}
      description={t('admin.mail.description')}
      path="/admin/mail"
    >
      <h1>{t('admin.mail.title')}</h1>
      <p>{t('admin.mail.intro')}</p>
      <StaffFilters
        texts="admin.mail"
        searchId={SEARCH_ID}
        search={view.search}
        onSearch={(search) => go({ search })}
        clearTo={
          view.search || view.status
            ? writeMailUrl({ ...view, search: '', status: undefined, page: 1 })
            : undefined
        }
      >
        <FilterSelect
          id={STATUS_ID}
          label={t('admin.mail.statusFilter')}
          allLabel={t('admin.mail.allStatuses')}
          value={view.status ?? ''}
          options={MAIL_STATUSES.map((status) => ({
            value: status,
            label: t(`admin.mail.status.${status}`),
          }))}
          onChange={(value) => go({ status: MAIL_STATUSES.find((status) => status === value) })}
        />
      </StaffFilters>

      <StaffResults
        texts="admin.mail"
        result={list}
        shown={(page) => page.messages.length}
        hrefFor={(n) => writeMailUrl({ ...view, page: n })}
      >
        {(page) => (
          <StaffTable
            captionId="staff-mail-caption"
            caption={t('admin.mail.caption')}
            className="staff-mail"
            head={
              <>
                <th scope="col">{t('admin.mail.columns.createdAt')}</th>
                <th scope="col">{t('admin.mail.columns.to')}</th>
                <th scope="col">{t('admin.mail.columns.subject')}</th>
                <th scope="col">{t('admin.mail.columns.kind')}</th>
                <th scope="col">{t('admin.mail.columns.status')}</th>
              </>
            }
          >
            {page.messages.map((message) => (
              <tr key={message.id}>
                <td>
                  <time dateTime={message.createdAt}>
                    {formatDateTime(message.createdAt, i18n.language)}
                  </time>
                </td>
                <td className="staff-table__email">
                  {message.to}
                  <br />
                  <small>{t(`admin.mail.languages.${message.language}`)}</small>
                </td>
                <th scope="row">
                  <Link to={`/admin/mail/${message.id}`} state={{ list: params.toString() }}>
                    {message.subject}
                  </Link>
                </th>
                <td>{t(`admin.mail.kinds.${message.kind}`)}</td>
                <td>
                  <MessageStatus message={message} />
                </td>
              </tr>
            ))}
          </StaffTable>
        )}
      </StaffResults>
    </StaffPage>
  );
}
