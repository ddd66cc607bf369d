import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CompanyDocument } from '../../contracts/accounts';
import { fetchDocumentFile } from '../../lib/api/admin';
import { classifyFailure, failureText, type CallFailure } from '../../lib/api/failure';

type Preview =
  | { state: 'loading' }
  | { state: 'ready'; url: string; type: Previewable | undefined }
  | { state: 'failed'; failure: CallFailure };

/** What a document may be shown as in the page; anything else is offered as a download. */
const PREVIEWABLE = ['application/pdf', 'image/jpeg', 'image/png'] as const;
type Previewable = (typeof PREVIEWABLE)[number];
const previewableType = (type: string): Previewable | undefined =>
  PREVIEWABLE.find((known) => known === type);

/**
 * A company's document shown in the page: read with the staff member's session (the file's
 * address needs it), shown from memory, and let go when the preview closes.
 */
export function DocumentPreview({ document }: { document: CompanyDocument }) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<Preview>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    let url: string | undefined;
    setPreview({ state: 'loading' });
    fetchDocumentFile(document.id, controller.signal).then(
      (blob) => {
        if (controller.signal.aborted) return;
        // A blob: address has the portal's origin: it is typed as the server answered, and
        // only as a PDF or a picture, so that no stored file can run as a page of the portal.
        const type = previewableType(blob.type);
        url = URL.createObjectURL(new Blob([blob], { type: type ?? 'application/octet-stream' }));
        setPreview({ state: 'ready', url, type });
      },
      async (error: unknown) => {
        if (controller.signal.aborted) return;
        const failure = await classifyFailure(error);
        if (!controller.signal.aborted) setPreview({ state: 'failed', failure });
      },
    );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [document.id, attempt]);

  const title = t('admin.documents.previewOf', { name: document.originalName });
  if (preview.state === 'loading') {
    return (
      <p className="staff-preview" role="status">
        {t('admin.documents.previewLoading')}
      </p>
    );
  }
  if (preview.state === 'failed') {
    return (
      <div className="staff-preview" role="alert">
        <p>
          {failureText(t, preview.failure, {
            offline: t('admin.needsNetwork'),
            refused: t('admin.documents.previewFailed'),
          })}
        </p>
        <button
          type="button"
          className="button button--small"
          onClick={() => setAttempt((n) => n + 1)}
        >
          {t('admin.retry')}
        </button>
      </div>
    );
  }
  return (
    <div className="staff-preview">
      {preview.type === 'application/pdf' && (
        <iframe className="staff-preview__frame" src={preview.url} title={title} />
      )}
      {preview.type?.startsWith('image/') && (
        <img className="staff-preview__image" src={preview.url} alt={title} />
      )}
      <p className="staff-preview__links">
        {preview.type && (
          <>
            <a href={preview.url} target="_blank" rel="noopener noreferrer">
              {t('admin.documents.openInTab')}
            </a>
            {' · '}
          </>
        )}
        <a href={preview.url} download={document.originalName}>
          {t('admin.documents.download')}
        </a>
      </p>
    </div>
  );
}
