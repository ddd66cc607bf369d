import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { QuantityStepper } from '../../components/form-field';
import type { RepCustomer } from '../../contracts/field-sales';
import { useDeviceWrite } from '../use-device-write';
import { formatMoney } from '../../lib/i18n';
import {
  clearRepCart,
  removeFromRepCart,
  setRepCartQuantity,
  type RepCartView,
} from '../../lib/sync/rep-cart';

/** The lines of a customer's cart, with their totals, each quantity changed in place. */
export function CartLines({ customer, view }: { customer: RepCustomer; view: RepCartView }) {
  const { t, i18n } = useTranslation();
  const change = useDeviceWrite('cart');
  const titleId = useId();
  const [confirmClear, setConfirmClear] = useState(false);
  const money = (amount: number) => formatMoney(amount, i18n.language);
  const { cart, missing } = view;

  if (cart.items.length === 0 && missing.length === 0) {
    return (
      <section className="rep-cart__lines" aria-labelledby={titleId}>
        <h2 id={titleId}>{t('fieldSales.cart.lines.title')}</h2>
        <p className="empty-state">{t('fieldSales.cart.lines.empty', { name: customer.name })}</p>
      </section>
    );
  }

  return (
    <section className="rep-cart__lines" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('fieldSales.cart.lines.title')}</h2>
      <div className="rep-cart__table">
        <table className="order-table">
          <thead>
            <tr>
              <th scope="col">{t('fieldSales.cart.lines.product')}</th>
              <th scope="col">{t('fieldSales.cart.lines.sku')}</th>
              <th scope="col" className="rep-cart__number">
                {t('fieldSales.cart.lines.unitPrice')}
              </th>
              <th scope="col">{t('fieldSales.cart.lines.quantity')}</th>
              <th scope="col" className="rep-cart__number">
                {t('fieldSales.cart.lines.total')}
              </th>
              <th scope="col">
                <span className="visually-hidden">{t('fieldSales.cart.lines.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {cart.items.map((item) => {
              const name = item.product.name;
              return (
                <tr key={item.productId} data-testid="rep-cart-line">
                  <th scope="row">{name}</th>
                  <td className="rep-cart__sku">{item.product.sku}</td>
                  <td className="rep-cart__number">{money(item.price)}</td>
                  <td>
                    <QuantityStepper
                      quantity={item.quantity}
                      stock={item.product.stock}
                      label={t('fieldSales.cart.lines.quantityOf', { name })}
                      labels={{
                        decrease: t('fieldSales.cart.lines.decrease', { name }),
                        increase: t('fieldSales.cart.lines.increase', { name }),
                        update: t('fieldSales.cart.lines.update'),
                        limited: (limit) => t(`cart.limit.${limit.kind}`, { count: limit.count }),
                      }}
                      onChange={(quantity) =>
                        change(
                          quantity === 0
                            ? removeFromRepCart(customer.id, item.productId)
                            : setRepCartQuantity(customer.id, item.productId, quantity),
                        )
                      }
                    />
                  </td>
                  <td className="rep-cart__number">
                    <strong>{money(item.lineTotal)}</strong>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button button--ghost button--small"
                      aria-label={t('fieldSales.cart.lines.removeLine', { name })}
                      onClick={() => void change(removeFromRepCart(customer.id, item.productId))}
                    >
                      {t('fieldSales.cart.lines.remove')}
                    </button>
                  </td>
                </tr>
              );
            })}
            {missing.map((line) => {
              const name = t('fieldSales.cart.lines.missingName', { id: line.productId });
              return (
                <tr
                  key={line.productId}
                  className="rep-cart__missing"
                  data-testid="rep-cart-missing"
                >
                  <th scope="row">
                    {name}
                    <span className="rep-cart__missing-note">
                      {t('fieldSales.cart.lines.missing')}
                    </span>
                  </th>
                  <td className="rep-cart__sku">–</td>
                  <td className="rep-cart__number">–</td>
                  <td>{line.quantity}</td>
                  <td className="rep-cart__number">–</td>
                  <td>
                    <button
                      type="button"
                      className="button button--ghost button--small"
                      aria-label={t('fieldSales.cart.lines.removeLine', { name })}
                      onClick={() => void change(removeFromRepCart(customer.id, line.productId))}
                    >
                      {t('fieldSales.cart.lines.remove')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <dl className="details rep-cart__totals">
        <dt>{t('fieldSales.cart.lines.subtotal')}</dt>
        <dd>{money(cart.subtotal)}</dd>
        <dt>{t('fieldSales.cart.lines.grandTotal')}</dt>
        <dd>
          <strong data-testid="rep-cart-total">{money(cart.total)}</strong>
        </dd>
      </dl>
      <p className="form-field__hint">
        {t('fieldSales.cart.lines.itemCount', { count: cart.itemCount })}{' '}
        {t('fieldSales.cart.lines.priceNote')}
      </p>
      <div className="card__actions">
        <button
          type="button"
          className="button button--ghost"
          onClick={() => setConfirmClear(true)}
        >
          {t('fieldSales.cart.lines.clear')}
        </button>
      </div>
      <ConfirmDialog
        open={confirmClear}
        title={t('fieldSales.cart.lines.clearTitle', { name: customer.name })}
        confirmLabel={t('fieldSales.cart.lines.clear')}
        cancelLabel={t('common.cancel')}
        danger
        onCancel={() => setConfirmClear(false)}
        onConfirm={() => {
          setConfirmClear(false);
          void change(clearRepCart(customer.id));
        }}
      >
        <p>{t('fieldSales.cart.lines.clearText')}</p>
      </ConfirmDialog>
    </section>
  );
}
