/**
 * How a company's documents and verification read on its profile
 * (docs/product.md#documents, docs/product.md#profile). Apart from ./accounts, which every
 * first screen loads: only the profile needs these.
 */
import {
  canSeePrices,
  REQUIRED_DOCUMENTS,
  type CompanyDocument,
  type CompanySummary,
  type DocumentType,
  type User,
} from './accounts';

/** The most recent document of each type (by review, upload or update time). */
export function latestDocumentByType(
  documents: readonly CompanyDocument[],
): Map<DocumentType, CompanyDocument> {
  const time = (d: CompanyDocument) => Date.parse(d.reviewedAt ?? d.uploadedAt ?? d.updatedAt);
  const latest = new Map<DocumentType, CompanyDocument>();
  for (const document of documents) {
    const current = latest.get(document.type);
    if (!current || time(document) > time(current)) latest.set(document.type, document);
  }
  return latest;
}

export type DocumentsBadge = 'rejected' | 'validated' | 'inReview' | 'actionRequired';

/**
 * The overall state of a company's documents (docs/product.md#documents): rejected if any
 * is rejected or the company says so; validated when every required one is approved; in
 * review when some are waiting; otherwise action is required.
 */
export function documentsBadge(
  documents: readonly CompanyDocument[],
  companyRejectedDocuments = 0,
): DocumentsBadge {
  const latest = latestDocumentByType(documents);
  const required = REQUIRED_DOCUMENTS.map((r) => latest.get(r.type));
  if (companyRejectedDocuments > 0 || [...latest.values()].some((d) => d.status === 'REJECTED'))
    return 'rejected';
  if (required.every((d) => d?.status === 'APPROVED')) return 'validated';
  if ([...latest.values()].some((d) => d.status === 'PENDING')) return 'inReview';
  return 'actionRequired';
}

export type ChecklistState = 'complete' | 'pending' | 'blocked';

export interface VerificationChecklist {
  profile: ChecklistState;
  documents: ChecklistState;
  review: ChecklistState;
}

/** The verification checklist of the profile (docs/product.md#profile). */
export function verificationChecklist(
  user: Pick<User, 'firstName' | 'lastName'>,
  company: Pick<CompanySummary, 'name' | 'isVerified' | 'status'> | null,
  badge: DocumentsBadge,
): VerificationChecklist {
  const verified = canSeePrices(company);
  return {
    profile: company?.name && user.firstName && user.lastName ? 'complete' : 'pending',
    documents:
      badge === 'rejected' ? 'blocked' : verified || badge === 'validated' ? 'complete' : 'pending',
    review: company?.status === 'SUSPENDED' ? 'blocked' : verified ? 'complete' : 'pending',
  };
}
