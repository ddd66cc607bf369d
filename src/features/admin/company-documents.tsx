import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CompanyDocument } from '../../contracts/accounts';
import { Banner } from '../../components/banner';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useToast } from '../../components/toast';
import { removeDocument, reviewDocument, type DocumentAction } from '../../lib/api/admin';
import { failureText } from '../../lib/api/failure';
import { formatDateTime } from '../../lib/i18n';
import { DecisionDialog } from './decision-dialog';
import { DocumentPreview } from './document-preview';
import { useStaffAction } from './use-staff-action';

const STATUS_KEY = { PENDING: 'review', APPROVED: 'approved', REJECTED: 'rejected' } as const;

const KB = 1024;
const MB = 1024 * KB;

/**
 * A company's documents: each can be previewed in the page, approved or rejected with a
 * note, or removed (an old or wrong one, so that a company at its limit can upload again).
 */
export function CompanyDocuments({
  documents,
  offline,
  onReviewed,
}: {
  documents: readonly CompanyDocument[];
  offline: boolean;
  onReviewed: () => void;
}) {
  const { t, i18n } = useTranslation();
  const notify = useToast();
  /** A file's size in megabytes, or kilobytes below one. */
  const sizeText = (bytes: number) =>
    bytes >= MB
      ? t('admin.documents.mb', { size: (bytes / MB).toFixed(1) })
      : t('admin.documents.kb', { size: Math.max(1, Math.round(bytes / KB)) });
  const action = useStaffAction();
  const [previewing, setPreviewing] = useState<number | null>(null);
  const [review, setReview] = useState<{
    document: CompanyDocument;
    action: DocumentAction;
  } | null>(null);
  // The note and the document and decision it was typed for.
  const [note, setNote] = useState({ target: '', text: '' });
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<CompanyDocument | null>(null);

  const open = (document: CompanyDocument, decision: DocumentAction) => {
    // A note typed for this document and decision is still there when the dialog opens again.
    const target = `${document.id}:${decision}`;
    if (note.target !== target) setNote({ target, text: '' });
    setError(null);
    setReview({ document, action: decision });
  };

  const send = async () => {
    if (!review) return;
    const { document, action: decision } = review;
    const notes = note.text.trim();
    const result = await action.run(JSON.stringify([decision, document.id, notes]), (key) =>
      reviewDocument(document.id, decision, notes, key),
    );
    if (result.ok) {
      notify(t(`admin.documents.done.${decision}`, { name: document.originalName }));
      setReview(null);
      setNote({ target: '', text: '' });
      onReviewed();
    } else {
      const { failure } = result;
      setError(
        failure.kind === 'refused' && failure.body?.code === 'DOCUMENT_DECISION_NOT_ALLOWED'
          ? t('admin.documents.conflict')
          : failureText(t, failure, {
              offline: t('admin.needsNetwork'),
              refused: t('admin.actionFailed'),
            }),
      );
      // A conflict: the document changed meanwhile. Read it again, so that its status and
      // buttons are the current ones; the message stays above them.
      if (result.failure.kind === 'refused' && result.failure.status === 409) {
        setReview(null);
        onReviewed();
      }
    }
  };

  const remove = async () => {
    if (!removing) return;
    const document = removing;
    const result = await action.run(JSON.stringify(['remove', document.id]), (key) =>
      removeDocument(document.id, key),
    );
    if (result.ok) {
      notify(t('admin.documents.done.remove', { name: document.originalName }));
      setRemoving(null);
      onReviewed();
      return;
    }
    const { failure } = result;
    // Removed meanwhile (another member of staff): the list is read again without it.
    const gone = failure.kind === 'refused' && failure.status === 404;
    setError(
      gone
        ? t('admin.documents.removedMeanwhile')
        : failureText(t, failure, {
            offline: t('admin.needsNetwork'),
            refused: t('admin.actionFailed'),
          }),
    );
    if (gone) {
      setRemoving(null);
      onReviewed();
    }
  };

  if (documents.length === 0) return <p>{t('admin.documents.none')}</p>;
  return (
    <>
      {error && review === null && removing === null && <Banner kind="error">{error}</Banner>}
      <ul className="documents staff-documents">
        {documents.map((document) => {
          const status = STATUS_KEY[document.status];
          const previewId = `staff-preview-${document.id}`;
          const shown = previewing === document.id;
          return (
            <li key={document.id} className="staff-documents__item">
              <div className="staff-documents__head">
                <div>
                  <strong>{t(`documents.types.${document.type}`)}</strong>{' '}
                  <span className={`chip chip--${status}`}>{t(`documents.status.${status}`)}</span>
                  <p className="documents__file">
                    {document.originalName} · {sizeText(document.size)} ·{' '}
                    {formatDateTime(document.uploadedAt, i18n.language)}
                  </p>
                  {document.reviewNotes && (
                    <p className="documents__file">
                      {t('admin.documents.note')}: {document.reviewNotes}
                    </p>
                  )}
                </div>
                <div className="staff-documents__actions">
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    aria-expanded={shown}
                    aria-controls={previewId}
                    onClick={() => setPreviewing(shown ? null : document.id)}
                  >
                    {shown ? t('admin.documents.hidePreview') : t('admin.documents.preview')}
                  </button>
                  {document.status !== 'APPROVED' && (
                    <button
                      type="button"
                      className="button button--small"
                      disabled={offline}
                      onClick={() => open(document, 'approve')}
                    >
                      {t('admin.documents.approve')}
                    </button>
                  )}
                  {document.status !== 'REJECTED' && (
                    <button
                      type="button"
                      className="button button--danger button--small"
                      disabled={offline}
                      onClick={() => open(document, 'reject')}
                    >
                      {t('admin.documents.reject')}
                    </button>
                  )}
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    disabled={offline}
                    onClick={() => {
                      setError(null);
                      setRemoving(document);
                    }}
                  >
                    {t('admin.documents.remove')}
                  </button>
                </div>
              </div>
              <div id={previewId}>{shown && <DocumentPreview document={document} />}</div>
            </li>
          );
        })}
      </ul>
      <DecisionDialog
        open={review !== null}
        title={
          review
            ? t(`admin.documents.confirm.${review.action}`, { name: review.document.originalName })
            : ''
        }
        text={t('admin.documents.noteText')}
        label={t('admin.documents.note')}
        confirmLabel={
          review?.action === 'reject' ? t('admin.documents.reject') : t('admin.documents.approve')
        }
        danger={review?.action === 'reject'}
        busy={action.busy}
        error={error}
        value={note.text}
        onChange={(text) => setNote((current) => ({ ...current, text }))}
        onConfirm={() => void send()}
        onCancel={() => setReview(null)}
      />
      <ConfirmDialog
        open={removing !== null}
        title={t('admin.documents.confirm.remove', { name: removing?.originalName ?? '' })}
        confirmLabel={t('admin.documents.remove')}
        cancelLabel={t('common.cancel')}
        danger
        busy={action.busy}
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
      >
        <p>{t('admin.documents.removeText')}</p>
        {error && removing !== null && <Banner kind="error">{error}</Banner>}
      </ConfirmDialog>
    </>
  );
}
