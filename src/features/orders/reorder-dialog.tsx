import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Modal } from '../../components/modal';
import { MAX_ORDER_LINES } from '../../contracts/field-sales';
import type { ReorderLine, ReorderPlan } from '../../lib/sync/reorder';

/**
 * What "Order again" (or "Add list to cart") put into the cart: how many lines, each line
 * that did not go in as ordered (or listed) and why, and the way to the cart.
 */
export function ReorderDialog({
  open,
  order,
  list,
  plan,
  onClose,
}: {
  open: boolean;
  /** The order's number, or the device's reference while it waits. */
  order: string | null;
  /** Instead of an order, the name of the order list put into the cart. */
  list?: string | undefined;
  plan: ReorderPlan | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const added = plan?.additions.length ?? 0;
  const missed = plan?.lines.filter((line) => line.problem) ?? [];
  return (
    <Modal
      open={open}
      title={added > 0 ? t('orders.reorder.addedTitle') : t('orders.reorder.noneTitle')}
      onClose={onClose}
    >
      {plan && (
        <>
          <p data-testid="reorder-summary">
            {list !== undefined
              ? added > 0
                ? t('lists.added', { count: added, list })
                : t('lists.none', { list })
              : added > 0
                ? t('orders.reorder.added', { count: added, order })
                : t('orders.reorder.none', { order })}
          </p>
          {missed.length > 0 && (
            <>
              <h3>{t(list !== undefined ? 'lists.missedTitle' : 'orders.reorder.missedTitle')}</h3>
              <ul className="reorder__missed" data-testid="reorder-missed">
                {missed.map((line) => (
                  <li key={line.productId ?? line.sku}>
                    <strong>{line.name}</strong> ({line.sku}): <MissedReason line={line} />
                  </li>
                ))}
              </ul>
            </>
          )}
          <div className="dialog__actions">
            {added > 0 && (
              <Link className="button" to="/cart">
                {t('orders.reorder.toCart')}
              </Link>
            )}
            <button
              type="button"
              className={added > 0 ? 'button button--ghost' : 'button'}
              onClick={onClose}
            >
              {t('orders.close')}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}

function MissedReason({ line }: { line: ReorderLine }) {
  const { t } = useTranslation();
  const values = {
    ordered: line.ordered,
    added: line.added,
    stock: line.stock ?? 0,
    inCart: line.inCart,
    max: MAX_ORDER_LINES,
  };
  if (line.problem === 'reduced') {
    return line.inCart > 0
      ? t('orders.reorder.problem.reducedInCart', values)
      : t('orders.reorder.problem.reduced', values);
  }
  return t(`orders.reorder.problem.${line.problem ?? 'notSold'}`, values);
}
