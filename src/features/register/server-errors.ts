import type { TFunction } from 'i18next';
import { failureText, type CallFailure } from '../../lib/api/failure';

/** Minutes to wait when the server gave no Retry-After: its window is an hour. */
const DEFAULT_WAIT_MINUTES = 60;

/**
 * What to tell the user when a registration failed for a reason other than its fields:
 * a refused document, offline (the data is kept here), too many from this network (429, with the wait), the
 * server busy receiving documents (its own 503), a server fault, else the server's own
 * message or `fallback`. A taken e-mail is no such reason: the server answers it like a
 * new one.
 */
export function registrationFailure(failure: CallFailure, t: TFunction, fallback: string): string {
  // A document the server refused (its content is not what its name says, or it is too
  // large): named, as when the browser refuses one (docs/product.md#documents).
  const file = failure.kind === 'refused' ? failure.body?.details?.[0]?.code : undefined;
  const name = failure.kind === 'refused' ? failure.body?.params?.name : undefined;
  if (name !== undefined && (file === 'fileTooLarge' || file === 'fileUnsupported')) {
    return t(file === 'fileTooLarge' ? 'documents.tooLarge' : 'documents.unsupported', { name });
  }
  if (failure.kind === 'refused' && failure.status === 429) {
    const retryAfter = failure.body?.retryAfter;
    const count = retryAfter ? Math.ceil(retryAfter / 60) : DEFAULT_WAIT_MINUTES;
    return t('register.tooManyRegistrations', { count });
  }
  if (failure.kind === 'serverFailed' && failure.code === 'UPLOADS_BUSY') {
    return t('register.uploadsBusy');
  }
  return failureText(t, failure, { offline: t('register.offline'), refused: fallback });
}
