import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type Company,
  REQUIRED_DOCUMENTS,
  type CompanyDocument,
  type DocumentField,
  type User,
} from '../../contracts/accounts';
import {
  latestDocumentByType,
  verificationChecklist,
  type DocumentsBadge,
} from '../../contracts/company-documents';
import { documentProblem } from '../../contracts/form-schemas';
import { Banner } from '../../components/banner';
import { downloadDocument, uploadDocument } from '../../lib/api/accounts';
import { classifyFailure, failureText } from '../../lib/api/failure';
import { formatTime } from '../../lib/i18n';
import { useConnectivity } from '../../lib/sync/connectivity';
import type { CompanyData } from './use-company';
import { profileDate } from './profile-date';

export function ChecklistCard({
  user,
  badge,
  company,
}: {
  user: User;
  badge: DocumentsBadge;
  /** The company's details, when known: they carry the reason staff gave for a decision. */
  company: Company | null | undefined;
}) {
  const { t } = useTranslation();
  const checklist = verificationChecklist(user, user.company, badge);
  const status = company?.status ?? user.company?.status;
  // Staff give a reason with a rejection or a suspension; the salon reads it here.
  const reason =
    (status === 'REJECTED' || status === 'SUSPENDED') && company?.status === status
      ? company.statusReason
      : '';
  return (
    <section className="card" aria-labelledby="checklist-title">
      <h2 id="checklist-title">{t('profile.checklist.title')}</h2>
      <ul className="checklist">
        {(['profile', 'documents', 'review'] as const).map((step) => (
          <li key={step} className={`checklist__item checklist__item--${checklist[step]}`}>
            <span className="checklist__icon" aria-hidden="true">
              {checklist[step] === 'complete' ? '✓' : checklist[step] === 'blocked' ? '!' : '…'}
            </span>
            <span>
              <strong>{t(`profile.checklist.${step}`)}</strong> —{' '}
              {t(`profile.checklist.state.${checklist[step]}`)}
            </span>
          </li>
        ))}
      </ul>
      {status === 'SUSPENDED' && (
        <p className="notice notice--offline">{t('company.suspendedText')}</p>
      )}
      {status === 'REJECTED' && (
        <p className="notice notice--offline">{t('company.rejectedText')}</p>
      )}
      {reason && <p className="notice notice--offline">{t('company.reason', { reason })}</p>}
    </section>
  );
}

/** Why the company shown is the device's copy, or why there is none. */
function CompanySource({ data }: { data: CompanyData }) {
  const { t, i18n } = useTranslation();
  if (data.status === 'ready') return null;
  if (data.status === 'loading' || data.company === undefined) {
    return <p role="status">{t('app.loading')}</p>;
  }
  if (data.company === null || !data.syncedAt) {
    return (
      <p className="notice" role="note">
        {data.status === 'serverFailed'
          ? t('failure.serverFailed')
          : t('profile.company.notOnDevice')}
      </p>
    );
  }
  const time = formatTime(data.syncedAt, i18n.language);
  const key = (
    {
      offline: 'profile.company.copyOffline',
      serverFailed: 'profile.company.copyServerFailed',
      failed: 'profile.company.copyUnread',
    } as const
  )[data.status];
  return (
    <p className="notice notice--offline" role="note">
      {t(key, { time })}
    </p>
  );
}

export function CompanyCard({ data }: { data: CompanyData }) {
  const { t } = useTranslation();
  const company = data.company;
  return (
    <section className="card" aria-labelledby="company-title">
      <h2 id="company-title">{t('profile.company.title')}</h2>
      <CompanySource data={data} />
      {company && (
        <>
          <dl className="details">
            <dt>{t('profile.company.name')}</dt>
            <dd>{company.name}</dd>
            <dt>{t('profile.company.registrationNumber')}</dt>
            <dd>{company.registrationNumber || '—'}</dd>
            <dt>{t('profile.company.vat')}</dt>
            <dd>{company.vatNumber || '—'}</dd>
            <dt>{t('profile.company.address')}</dt>
            <dd>
              {[company.address, company.postalCode, company.city, company.country]
                .filter(Boolean)
                .join(', ') || '—'}
            </dd>
            <dt>{t('profile.company.phone')}</dt>
            <dd>{company.phone || '—'}</dd>
          </dl>
          <ul className="tags">
            {(['industry', 'businessType', 'employeeCount', 'annualRevenue'] as const)
              .filter((key) => company[key])
              .map((key) => (
                <li key={key}>
                  {t(`profile.company.${key}`)}: {company[key]}
                </li>
              ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** A document's file: its name (a button that downloads it), when it came, the staff's notes. */
function DocumentFile({
  document,
  onDownload,
  withNotes = false,
}: {
  document: CompanyDocument;
  onDownload: (document: CompanyDocument) => Promise<void>;
  withNotes?: boolean;
}) {
  return (
    <p className="documents__file">
      <button type="button" className="link-button" onClick={() => void onDownload(document)}>
        {document.originalName}
      </button>{' '}
      · {profileDate(document.uploadedAt)}
      {withNotes && document.reviewNotes && ` · ${document.reviewNotes}`}
    </p>
  );
}

const statusKey = (document: CompanyDocument | undefined) =>
  document
    ? document.status === 'PENDING'
      ? 'review'
      : document.status === 'APPROVED'
        ? 'approved'
        : 'rejected'
    : 'missing';

export function DocumentsCard({ data, badge }: { data: CompanyData; badge: DocumentsBadge }) {
  const { t } = useTranslation();
  const [banner, setBanner] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState<DocumentField | null>(null);
  const connectivity = useConnectivity();
  // The device keeps no copy of the documents: without the server's list, nothing is said of them.
  const known = data.status === 'ready';
  const latest = latestDocumentByType(data.documents);
  const requiredTypes = new Set<string>(REQUIRED_DOCUMENTS.map((d) => d.type));
  const extra = data.documents.filter(
    (d) => !requiredTypes.has(d.type) || latest.get(d.type)?.id !== d.id,
  );

  // One key per file chosen: the same file sent again after a lost response is stored once.
  const uploadKeys = useRef(new Map<string, string>());

  const upload = async (field: DocumentField, file: File | undefined) => {
    if (!file) return;
    // A file the server would refuse is not sent (5 MB, on a fair's connection).
    const problem = documentProblem(file);
    if (problem) {
      setBanner({
        kind: 'error',
        text: t(problem === 'tooLarge' ? 'documents.tooLarge' : 'documents.unsupported', {
          name: file.name,
        }),
      });
      return;
    }
    const chosen = [field, file.name, file.size].join('\n');
    const key = uploadKeys.current.get(chosen) ?? crypto.randomUUID();
    uploadKeys.current.set(chosen, key);
    setBusy(field);
    setBanner(null);
    try {
      await uploadDocument(field, file, key);
      uploadKeys.current.delete(chosen);
      setBanner({ kind: 'success', text: t('documents.uploaded', { name: file.name }) });
      data.reload();
    } catch (error) {
      const failure = await classifyFailure(error);
      // Refused: nothing was stored, and the next try is a new upload. Otherwise (also while
      // the first is still being stored) it may be stored, and sending it again keeps its key.
      if (failure.kind === 'refused' && failure.body?.code !== 'REQUEST_IN_PROGRESS')
        uploadKeys.current.delete(chosen);
      const code = failure.kind === 'refused' ? failure.body?.details?.[0]?.code : undefined;
      setBanner({
        kind: 'error',
        text:
          code === 'fileTooLarge'
            ? t('documents.tooLarge', { name: file.name })
            : code === 'fileUnsupported'
              ? t('documents.unsupported', { name: file.name })
              : failureText(t, failure, {
                  offline: t('documents.needsNetwork'),
                  refused: t('documents.uploadFailed'),
                }),
      });
    } finally {
      setBusy(null);
    }
  };

  const download = async (document: CompanyDocument) => {
    setBanner(null);
    try {
      await downloadDocument(document);
    } catch (error) {
      setBanner({
        kind: 'error',
        text: failureText(t, await classifyFailure(error), {
          offline: t('profile.needsNetwork'),
          refused: t('documents.downloadFailed'),
        }),
      });
    }
  };

  const picker = (field: DocumentField, label: string) => (
    <label className="button button--ghost button--small file-button">
      {busy === field ? t('documents.uploading') : label}
      <input
        type="file"
        className="visually-hidden"
        accept="application/pdf,image/*"
        disabled={busy !== null || connectivity === 'offline'}
        onChange={(event) => {
          void upload(field, event.target.files?.[0]);
          event.target.value = '';
        }}
      />
    </label>
  );

  return (
    <section className="card" aria-labelledby="documents-title">
      <h2 id="documents-title">
        {t('profile.documents.title')}{' '}
        {known && <span className={`chip chip--${badge}`}>{t(`documents.badge.${badge}`)}</span>}
      </h2>
      {banner && <Banner kind={banner.kind}>{banner.text}</Banner>}
      {data.status === 'loading' ? (
        <p role="status">{t('app.loading')}</p>
      ) : known ? (
        connectivity === 'offline' && <p>{t('documents.needsNetwork')}</p>
      ) : (
        <p className="notice" role="note">
          {t('documents.notOnDevice')}
        </p>
      )}
      {known && (
        <>
          <ul className="documents">
            {REQUIRED_DOCUMENTS.map((required) => {
              const document = latest.get(required.type);
              const state = statusKey(document);
              return (
                <li key={required.key} className="documents__item">
                  <div>
                    <strong>{t(`documents.types.${required.type}`)}</strong>{' '}
                    <span className={`chip chip--${state}`}>{t(`documents.status.${state}`)}</span>
                    {document && (
                      <DocumentFile document={document} onDownload={download} withNotes />
                    )}
                  </div>
                  {picker(
                    required.field,
                    document ? t('documents.replace') : t('documents.upload'),
                  )}
                </li>
              );
            })}
          </ul>
          <h3>{t('profile.documents.extra')}</h3>
          {extra.length === 0 ? (
            <p>{t('profile.documents.noExtra')}</p>
          ) : (
            <ul className="documents">
              {extra.map((document) => (
                <li key={document.id} className="documents__item">
                  <div>
                    <strong>{t(`documents.types.${document.type}`)}</strong>{' '}
                    <span className={`chip chip--${statusKey(document)}`}>
                      {t(`documents.status.${statusKey(document)}`)}
                    </span>
                    <DocumentFile document={document} onDownload={download} />
                  </div>
                </li>
              ))}
            </ul>
          )}
          {picker('otherDocument', t('documents.uploadOther'))}
        </>
      )}
    </section>
  );
}
