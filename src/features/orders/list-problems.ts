import type { TFunction } from 'i18next';
import { MAX_LIST_ITEMS, MAX_LIST_NAME_LENGTH, MAX_ORDER_LISTS } from '../../contracts/order-lists';
import { MAX_LINE_QUANTITY } from '../../contracts/orders';
import { ListChangeRefused, type ListProblem } from '../../lib/sync/list-changes';

/** The limit each problem names, if any. */
const LIMITS: Partial<Record<ListProblem, number>> = {
  nameTooLong: MAX_LIST_NAME_LENGTH,
  tooManyLists: MAX_ORDER_LISTS,
  tooManyItems: MAX_LIST_ITEMS,
  quantity: MAX_LINE_QUANTITY,
};

/** What to tell the user when a change of a list was not made. */
export function listProblemText(t: TFunction, error: unknown): string {
  if (!(error instanceof ListChangeRefused)) return t('lists.failed');
  return t(`lists.problem.${error.problem}`, { max: LIMITS[error.problem] ?? 0 });
}
