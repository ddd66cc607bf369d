import { MAX_DOCUMENT_BYTES } from '../../contracts/accounts';

const ACCEPTED_TYPES = ['application/pdf', 'image/jpeg', 'image/png'];
const ACCEPTED_EXTENSIONS = /\.(pdf|jpe?g|png)$/i;
export const DOCUMENT_ACCEPT = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';

/** Why a chosen file cannot be sent, before it is sent: 'tooLarge', 'unsupported' or null. */
export function fileProblem(file: File): 'tooLarge' | 'unsupported' | null {
  if (!ACCEPTED_TYPES.includes(file.type) && !ACCEPTED_EXTENSIONS.test(file.name))
    return 'unsupported';
  if (file.size > MAX_DOCUMENT_BYTES) return 'tooLarge';
  return null;
}
