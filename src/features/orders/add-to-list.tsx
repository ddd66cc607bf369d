import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { useToast } from '../../components/toast';
import { productTexts, type Product } from '../../contracts/catalogue';
import { MAX_LIST_NAME_LENGTH } from '../../contracts/order-lists';
import { MAX_LINE_QUANTITY } from '../../contracts/orders';
import { useUser } from '../../lib/auth/session';
import { addToList, ListChangeRefused, makeList, useOrderLists } from '../../lib/sync/list-changes';
import { keepsLists } from '../../lib/sync/order-lists';
import { listProblemText } from './list-problems';
import '../screens.css';

/** The list chosen last, offered first the next time: products usually go to one list in a row. */
let lastChosen: string | undefined;

/** The choice of a list not made yet. */
const NEW_LIST = 'new';

/**
 * "Add to list" on a product's card and on its page (docs/product.md#order-lists): the
 * button, and a dialog to choose one of the salon's lists, or name a new one, and how many.
 * Loaded with the orders' screen for a signed-in user (src/app/pages.tsx); shown to a
 * salon's user whose company may order, as only they keep lists.
 */
export function AddToList({ product, small = false }: { product: Product; small?: boolean }) {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const [open, setOpen] = useState(false);
  if (!keepsLists(user)) return null;
  const { name } = productTexts(product, i18n.language);
  return (
    <>
      <button
        type="button"
        className={`button button--ghost add-to-list__open${small ? ' button--small' : ''}`}
        aria-label={t('lists.addToListOf', { name })}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {t('lists.addToList')}
      </button>
      <Modal open={open} title={t('lists.addTitle')} onClose={() => setOpen(false)}>
        <AddForm productId={product.id} name={name} onDone={() => setOpen(false)} />
      </Modal>
    </>
  );
}

/** Which field a problem belongs to; none for the list as a whole. */
type Problem = { field: 'name' | 'quantity' | null; text: string };

function AddForm({
  productId,
  name,
  onDone,
}: {
  productId: number;
  name: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const notify = useToast();
  const lists = useOrderLists();
  const group = useId();
  const [choice, setChoice] = useState<string | undefined>();
  const [newName, setNewName] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  if (lists === undefined) {
    return (
      <p role="status" aria-busy="true">
        {t('app.loading')}
      </p>
    );
  }
  const known = (id: string | undefined) => lists.some((list) => list.id === id);
  // The list chosen here, else the one chosen last, else the newest; a new one when none.
  const chosen =
    (choice === NEW_LIST || known(choice) ? choice : undefined) ??
    (known(lastChosen) ? lastChosen : lists.at(-1)?.id) ??
    NEW_LIST;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const amount = Number(quantity);
    if (!Number.isInteger(amount) || amount < 1 || amount > MAX_LINE_QUANTITY) {
      setProblem({
        field: 'quantity',
        text: listProblemText(t, new ListChangeRefused('quantity')),
      });
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const listId = chosen === NEW_LIST ? await makeList(newName) : chosen;
      const listName =
        chosen === NEW_LIST
          ? newName.trim()
          : (lists.find((list) => list.id === listId)?.name ?? '');
      const total = await addToList(listId, productId, amount);
      lastChosen = listId;
      notify(t('lists.addedTo', { list: listName, quantity: total, name }));
      onDone();
    } catch (error) {
      const nameProblem =
        error instanceof ListChangeRefused &&
        (error.problem === 'nameRequired' || error.problem === 'nameTooLong');
      setProblem({ field: nameProblem ? 'name' : null, text: listProblemText(t, error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="add-to-list" onSubmit={(event) => void submit(event)} noValidate>
      <p className="add-to-list__product">{name}</p>
      {lists.length > 0 && (
        <fieldset className="add-to-list__lists">
          <legend>{t('lists.chooseList')}</legend>
          {[
            ...lists.map((list) => ({ id: list.id, label: list.name, count: list.items.length })),
            { id: NEW_LIST, label: t('lists.newListOption'), count: undefined },
          ].map((option) => (
            <label key={option.id} className="checkbox">
              <input
                type="radio"
                name={group}
                value={option.id}
                checked={chosen === option.id}
                onChange={() => setChoice(option.id)}
              />
              {option.label}
              {option.count !== undefined && (
                <span className="hint"> ({t('lists.itemCount', { count: option.count })})</span>
              )}
            </label>
          ))}
        </fieldset>
      )}
      {chosen === NEW_LIST && (
        <FormField
          label={t('lists.newListName')}
          value={newName}
          maxLength={MAX_LIST_NAME_LENGTH}
          autoComplete="off"
          error={problem?.field === 'name' ? problem.text : undefined}
          onChange={(event) => setNewName(event.target.value)}
        />
      )}
      <FormField
        label={t('lists.quantity')}
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_LINE_QUANTITY}
        step={1}
        value={quantity}
        error={problem?.field === 'quantity' ? problem.text : undefined}
        onChange={(event) => setQuantity(event.target.value)}
      />
      {problem && problem.field === null && (
        <p className="form-field__error" role="alert">
          {problem.text}
        </p>
      )}
      <div className="dialog__actions">
        <button type="button" className="button button--ghost" onClick={onDone}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button" disabled={busy}>
          {t('lists.addToList')}
        </button>
      </div>
    </form>
  );
}
