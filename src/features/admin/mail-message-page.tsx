import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router-dom';
import type { AdminMailDetail } from '../../contracts/mail';
import { fetchAdminMailMessage } from '../../lib/api/admin-mail';
import { formatDateTime } from '../../lib/i18n';
import { MessageStatus } from './mail-page';
import { StaffDataNotice, StaffPage } from './staff-page';
import { useStaffData } from './use-staff-data';

const messageId = (param: string | undefined): number | undefined =>
  param && /^\d{1,9}$/.test(param) && Number(param) >= 1 ? Number(param) : undefined;

export function MailMessagePage() {
  const { t } = useTranslation();
  const id = messageId(useParams().id);
  return (
    <StaffPage
      title={t('admin.mail.detail.title')}
      description={t('admin.mail.description')}
      path="/admin/mail"
    >
      {id === undefined ? <MessageNotFound /> : <MessageDetail id={id} />}
    </StaffPage>
  );
}

function MessageNotFound() {
  const { t } = useTranslation();
  return (
    <div className="empty-state" role="alert">
      <h1>{t('admin.mail.detail.notFound')}</h1>
      <p>{t('admin.mail.detail.notFoundText')}</p>
      <Link className="button" to="/admin/mail">
        {t('admin.mail.detail.backToList')}
      </Link>
    </div>
  );
}

/** The list the staff member came from, with its filters, or the whole list. */
function useListAddress(): string {
  const state = useLocation().state as { list?: unknown } | null;
  return typeof state?.list === 'string' && state.list
    ? `/admin/mail?${state.list}`
    : '/admin/mail';
}

function MessageDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const detail = useStaffData(`mail-${id}`, (signal) => fetchAdminMailMessage(id, signal));
  const listAddress = useListAddress();
  if (detail.failure?.kind === 'refused' && detail.failure.status === 404) {
    return <MessageNotFound />;
  }
  return (
    <>
      <p className="staff-back">
        <Link to={listAddress}>‹ {t('admin.mail.detail.backToList')}</Link>
      </p>
      {!detail.data && <h1>{t('admin.mail.detail.title')}</h1>}
      <StaffDataNotice result={detail} />
      {detail.data && <MessageScreen message={detail.data.message} />}
    </>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children || '—'}</dd>
    </>
  );
}

/**
 * One message as its recipient reads it: its plain text, and its HTML in a frame that runs
 * no script and reaches nothing of the page (`sandbox` without permissions). Secret values
 * (a password-reset link) come from the server already hidden.
 */
function MessageScreen({ message }: { message: AdminMailDetail['message'] }) {
  const { t, i18n } = useTranslation();
  const when = (iso: string | null) => (iso ? formatDateTime(iso, i18n.language) : null);
  return (
    <>
      <header className="staff-company__header">
        <h1>{message.subject}</h1>
      </header>
      <section className="card" aria-labelledby="staff-mail-summary">
        <h2 id="staff-mail-summary">{t('admin.mail.detail.summary')}</h2>
        <dl className="details">
          <Row label={t('admin.mail.columns.to')}>{message.to}</Row>
          <Row label={t('admin.mail.detail.language')}>
            {t(`admin.mail.languages.${message.language}`)}
          </Row>
          <Row label={t('admin.mail.columns.kind')}>{t(`admin.mail.kinds.${message.kind}`)}</Row>
          <Row label={t('admin.mail.columns.createdAt')}>{when(message.createdAt)}</Row>
          <Row label={t('admin.mail.columns.status')}>
            <MessageStatus message={message} />
          </Row>
          {message.sentAt && (
            <Row label={t('admin.mail.detail.sentAt')}>{when(message.sentAt)}</Row>
          )}
        </dl>
      </section>

      <section className="card staff-section" aria-labelledby="staff-mail-text">
        <h2 id="staff-mail-text">{t('admin.mail.detail.text')}</h2>
        <pre className="staff-mail__text" lang={message.language}>
          {message.text}
        </pre>
      </section>

      {message.html && (
        <section className="card staff-section" aria-labelledby="staff-mail-html">
          <h2 id="staff-mail-html">{t('admin.mail.detail.html')}</h2>
          <iframe
            className="staff-mail__html"
            title={t('admin.mail.detail.htmlFrame', { subject: message.subject })}
            sandbox=""
            srcDoc={message.html}
          />
        </section>
      )}
    </>
  );
}
