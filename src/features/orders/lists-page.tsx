import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { canSeePrices } from '../../contracts/accounts';
import { productTexts, type Product } from '../../contracts/catalogue';
import { clampQuantity } from '../../contracts/order-lines';
import { MAX_LIST_NAME_LENGTH } from '../../contracts/order-lists';
import { MAX_LINE_QUANTITY } from '../../contracts/orders';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormField } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { ScreenMeta } from '../screen-meta';
import { useToast } from '../../components/toast';
import { fetchProduct } from '../../lib/api/catalogue';
import { useUser } from '../../lib/auth/session';
import { db } from '../../lib/db/db';
import { readProducts } from '../../lib/db/stored-products';
import { useConnectivity } from '../../lib/sync/connectivity';
import { requestSync } from '../../lib/sync/device';
import { useDeviceQuery } from '../../lib/sync/engine-loader';
import {
  deleteList,
  makeList,
  removeListItem,
  renameList,
  setListItem,
  useOrderLists,
  type ListView,
} from '../../lib/sync/list-changes';
import { orderAgain, type ReorderPlan } from '../../lib/sync/reorder';
import { listProblemText } from './list-problems';
import { ReorderDialog } from './reorder-dialog';
import '../screens.css';
import { UnverifiedNotice } from '../cart/unverified-notice';

/**
 * The products the lists name, from the device's catalogue; those it lacks (the whole
 * catalogue is not on the device yet) are asked of the server once, when it can be reached.
 */
function useListProducts(ids: readonly number[]): ReadonlyMap<number, Product> {
  const key = [...ids].sort((a, b) => a - b).join(',');
  const stored = useDeviceQuery(() => readProducts(db, ids), [key]);
  const asked = useRef(new Set<number>());
  const [fetched, setFetched] = useState<ReadonlyMap<number, Product>>(new Map());
  useEffect(() => {
    if (!stored) return;
    const missing = ids.filter((id) => !stored.has(id) && !asked.current.has(id));
    if (missing.length === 0) return;
    missing.forEach((id) => asked.current.add(id));
    void Promise.all(missing.map((id) => fetchProduct(id).catch(() => undefined))).then((found) =>
      setFetched((current) => {
        const next = new Map(current);
        for (const product of found) if (product) next.set(product.id, product);
        return next;
      }),
    );
    // `ids` is what `key` says.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stored, key]);
  return new Map([...fetched, ...(stored ?? new Map<number, Product>())]);
}

/** What "Add list to cart" put into the cart, from which list. */
interface Added {
  list: string;
  plan: ReorderPlan;
}

/** The list being renamed (or, with no id, made). */
interface Naming {
  listId?: string;
  name: string;
}

/**
 * A salon user's order lists (/orders/lists, docs/product.md#order-lists): make, rename and
 * delete lists, change the quantities in them, and add a whole list to the cart. Read from
 * the device, changed through the outbox: all of it works offline.
 */
export function OrderListsPage() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const approved = canSeePrices(user?.company);
  const lists = useOrderLists();
  const connectivity = useConnectivity();
  const notify = useToast();
  const products = useListProducts([
    ...new Set(lists?.flatMap((list) => list.items.map((item) => item.productId)) ?? []),
  ]);
  const [naming, setNaming] = useState<Naming | null>(null);
  const [deleting, setDeleting] = useState<ListView | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const [added, setAdded] = useState<Added | null>(null);

  // The lists as the server has them now (made or changed on another device).
  useEffect(() => {
    requestSync({ refresh: true });
  }, []);

  const listToCart = async (list: ListView) => {
    if (adding) return;
    setAdding(list.id);
    try {
      const plan = await orderAgain(
        list.items.map((item) => {
          const product = products.get(item.productId);
          return {
            productId: item.productId,
            productName: product
              ? productTexts(product, i18n.language).name
              : t('lists.unknownProduct', { id: item.productId }),
            productSku: product?.sku ?? '',
            quantity: item.quantity,
          };
        }),
      );
      setAdded({ list: list.name, plan });
    } catch {
      notify(t('lists.addFailed'), 'error');
    } finally {
      setAdding(null);
    }
  };

  return (
    <div className="page order-lists">
      <ScreenMeta
        title={t('lists.title')}
        description={t('lists.description')}
        path="/orders/lists"
      />
      <h1>{t('lists.title')}</h1>
      <p className="order-lists__intro">{t('lists.intro')}</p>
      <UnverifiedNotice company={user?.company} />
      {connectivity === 'offline' && <p className="notice notice--offline">{t('lists.offline')}</p>}
      {approved && (
        <div className="order-lists__actions">
          <button type="button" className="button" onClick={() => setNaming({ name: '' })}>
            {t('lists.newList')}
          </button>
        </div>
      )}
      {lists === undefined ? (
        <p className="loading" role="status" aria-busy="true">
          <span className="spinner" aria-hidden="true" />
          {t('app.loading')}
        </p>
      ) : lists.length === 0 ? (
        <div className="empty-state">
          <h2>{t('lists.emptyTitle')}</h2>
          <p>{t('lists.emptyText')}</p>
          <Link className="button button--ghost" to="/products">
            {t('lists.toCatalogue')}
          </Link>
        </div>
      ) : (
        <ul className="order-lists__list">
          {lists.map((list) => (
            <li key={list.id}>
              <ListCard
                list={list}
                products={products}
                adding={adding}
                mayOrder={approved}
                onAddToCart={() => void listToCart(list)}
                onRename={() => setNaming({ listId: list.id, name: list.name })}
                onDelete={() => setDeleting(list)}
              />
            </li>
          ))}
        </ul>
      )}
      <Modal
        open={naming !== null}
        title={
          naming?.listId
            ? t('lists.renameTitle', { name: lists?.find((l) => l.id === naming.listId)?.name })
            : t('lists.newList')
        }
        onClose={() => setNaming(null)}
      >
        {naming && <NameForm naming={naming} onDone={() => setNaming(null)} />}
      </Modal>
      <ConfirmDialog
        open={deleting !== null}
        title={t('lists.deleteTitle', { name: deleting?.name ?? '' })}
        confirmLabel={t('lists.deleteConfirm')}
        cancelLabel={t('common.cancel')}
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) {
            void deleteList(deleting.id).catch((error: unknown) =>
              notify(listProblemText(t, error), 'error'),
            );
          }
          setDeleting(null);
        }}
      >
        <p>{t('lists.deleteText')}</p>
      </ConfirmDialog>
      <ReorderDialog
        open={added !== null}
        order={null}
        list={added?.list ?? ''}
        plan={added?.plan ?? null}
        onClose={() => setAdded(null)}
      />
    </div>
  );
}

/** A new list's name, or a new name for a list. */
function NameForm({ naming, onDone }: { naming: Naming; onDone: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(naming.name);
  const [problem, setProblem] = useState<string | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      if (naming.listId) await renameList(naming.listId, name);
      else await makeList(name);
      onDone();
    } catch (error) {
      setProblem(listProblemText(t, error));
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <FormField
        label={t('lists.name')}
        value={name}
        maxLength={MAX_LIST_NAME_LENGTH}
        autoComplete="off"
        hint={t('lists.nameHint', { max: MAX_LIST_NAME_LENGTH })}
        error={problem}
        onChange={(event) => setName(event.target.value)}
      />
      <div className="dialog__actions">
        <button type="button" className="button button--ghost" onClick={onDone}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button">
          {naming.listId ? t('common.save') : t('lists.create')}
        </button>
      </div>
    </form>
  );
}

function ListCard({
  list,
  products,
  adding,
  mayOrder,
  onAddToCart,
  onRename,
  onDelete,
}: {
  list: ListView;
  products: ReadonlyMap<number, Product>;
  /** The list being put into the cart, if any. */
  adding: string | null;
  mayOrder: boolean;
  onAddToCart: () => void;
  onRename: () => void;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  const notify = useToast();
  const headingId = `list-${list.id}`;
  const failed = (error: unknown) => notify(listProblemText(t, error), 'error');
  return (
    <section className="card order-list-card" aria-labelledby={headingId} data-testid="order-list">
      <header className="order-list-card__header">
        <h2 id={headingId}>{list.name}</h2>
        <span className="hint">{t('lists.itemCount', { count: list.items.length })}</span>
        {list.waiting > 0 && <span className="chip chip--pending">{t('lists.waiting')}</span>}
      </header>
      {list.items.length === 0 ? (
        <p className="hint">{t('lists.noItems')}</p>
      ) : (
        <table className="order-table">
          <thead>
            <tr>
              <th scope="col">{t('lists.product')}</th>
              <th scope="col">{t('product.sku')}</th>
              <th scope="col">{t('lists.quantity')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('lists.remove')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((item) => {
              const product = products.get(item.productId);
              const name = product
                ? productTexts(product, i18n.language).name
                : t('lists.unknownProduct', { id: item.productId });
              return (
                <tr key={item.productId} data-testid="order-list-item">
                  <td>{product ? <Link to={`/products/${item.productId}`}>{name}</Link> : name}</td>
                  <td>{product?.sku}</td>
                  <td>
                    <ItemQuantity
                      quantity={item.quantity}
                      label={t('lists.quantityOf', { name, list: list.name })}
                      onChange={(quantity) => {
                        void setListItem(list.id, item.productId, quantity).catch(failed);
                      }}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button button--ghost button--small"
                      aria-label={t('lists.removeItem', { name, list: list.name })}
                      onClick={() => {
                        void removeListItem(list.id, item.productId).catch(failed);
                      }}
                    >
                      {t('lists.remove')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div className="order-list-card__actions">
        {mayOrder && list.items.length > 0 && (
          <button
            type="button"
            className="button"
            disabled={adding !== null}
            aria-busy={adding === list.id}
            onClick={onAddToCart}
          >
            {adding === list.id ? t('lists.adding') : t('lists.addToCart')}
          </button>
        )}
        <button type="button" className="button button--ghost" onClick={onRename}>
          {t('lists.rename')}
        </button>
        <button type="button" className="button button--danger" onClick={onDelete}>
          {t('lists.delete')}
        </button>
      </div>
    </section>
  );
}

/**
 * A quantity in a list, saved on blur or Enter. A list is a plan: any quantity from 1 to a
 * line's largest, whatever the stock.
 */
function ItemQuantity({
  quantity,
  label,
  onChange,
}: {
  quantity: number;
  label: string;
  onChange: (quantity: number) => void;
}) {
  const [draft, setDraft] = useState(String(quantity));
  useEffect(() => setDraft(String(quantity)), [quantity]);
  const commit = () => {
    const next = clampQuantity(Number(draft || quantity), MAX_LINE_QUANTITY);
    setDraft(String(next));
    if (next !== quantity) onChange(next);
  };
  return (
    <input
      className="order-list-card__quantity"
      type="number"
      inputMode="numeric"
      min={1}
      max={MAX_LINE_QUANTITY}
      step={1}
      aria-label={label}
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
    />
  );
}
