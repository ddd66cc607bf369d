import { useLiveQuery } from 'dexie-react-hooks';
import { lazy, Suspense, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { productTexts, type Product } from '../../contracts/catalogue';
import { MAX_ORDER_LINES } from '../../contracts/field-sales';
import type { Cart } from '../../contracts/orders';
import { Modal } from '../../components/modal';
import { ProductCombobox, ProductOption } from '../../components/product-combobox';
import { formatMoney } from '../../lib/i18n';
import { addToRepCart, TooManyLines } from '../../lib/sync/rep-cart';
import type { BarcodeScannerProps, ScanOutcome } from './barcode-scanner';
import { findByCode, quantityToAdd, suggestProducts } from './quick-entry';

/** Shown when the scanner's code could not be loaded (offline before it was kept). */
function ScannerUnavailable({ open, onClose }: BarcodeScannerProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={t('fieldSales.scan.title')} onClose={onClose} className="scanner">
      <p className="banner banner--error" role="alert">
        {t('fieldSales.scan.problem.readerFailed')}
      </p>
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          {t('fieldSales.scan.close')}
        </button>
      </div>
    </Modal>
  );
}

/** The camera and its barcode reader load when the rep first scans, never with the page. */
const BarcodeScanner = lazy(() =>
  import('./barcode-scanner').then(
    (module) => ({ default: module.BarcodeScanner }),
    () => ({ default: ScannerUnavailable }),
  ),
);

/** Fewest characters typed before suggestions are listed. */
const MIN_SEARCH_LENGTH = 2;

/**
 * Adding to a customer's cart by what the rep types — an exact SKU or barcode, added on
 * Enter, or a product picked from the suggestions — or scans with the camera.
 */
export function QuickEntry({ customerId, cart }: { customerId: number; cart: Cart }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const codeField = useRef<HTMLInputElement>(null);
  const quantityField = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [listOpen, setListOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ScanOutcome | null>(null);
  const [scanning, setScanning] = useState(false);
  const [scannerUsed, setScannerUsed] = useState(false);

  const search = typed.trim().length >= MIN_SEARCH_LENGTH ? typed : '';
  const found = useLiveQuery(() => suggestProducts(search), [search]) ?? [];
  const suggestions = search !== '' ? found : [];
  const nameOf = (product: Product) => productTexts(product, i18n.language).name;

  /** Adds `wanted` of `product`, within its stock; says what was done or why not. */
  const add = async (product: Product, wanted: number): Promise<boolean> => {
    const name = nameOf(product);
    const inCart = cart.items.find((item) => item.productId === product.id)?.quantity ?? 0;
    const check = quantityToAdd(product, inCart, wanted);
    if (!check.ok) {
      setOutcome({
        kind: 'error',
        text: t(`fieldSales.cart.quick.${check.problem}`, { name, stock: product.stock }),
      });
      return false;
    }
    try {
      await addToRepCart(product.id, check.quantity, customerId);
    } catch (error) {
      setOutcome({
        kind: 'error',
        text:
          error instanceof TooManyLines
            ? t('fieldSales.cart.quick.tooManyLines', { max: MAX_ORDER_LINES })
            : t('fieldSales.cart.quick.failed'),
      });
      return false;
    }
    setOutcome({
      kind: 'done',
      text: t(check.limited ? 'fieldSales.cart.quick.limited' : 'fieldSales.cart.quick.added', {
        name,
        quantity: check.quantity,
      }),
    });
    return true;
  };

  const choose = (product: Product) => {
    setTyped(product.sku);
    quantityField.current?.focus();
    quantityField.current?.select();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const code = typed.trim();
    if (!code) {
      setOutcome({ kind: 'error', text: t('fieldSales.cart.quick.empty') });
      codeField.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const product = await findByCode(code);
      if (!product) {
        // Asked again for this code: the list on screen may still be a shorter code's.
        const candidates = await suggestProducts(code.length >= MIN_SEARCH_LENGTH ? code : '');
        setListOpen(true);
        setOutcome({
          kind: 'error',
          text: t(
            candidates.length > 0
              ? 'fieldSales.cart.quick.choose'
              : 'fieldSales.cart.quick.unknown',
            { code },
          ),
        });
        return;
      }
      if (await add(product, Number(quantity))) {
        setTyped('');
        setQuantity('1');
        setListOpen(false);
        codeField.current?.focus();
      }
    } finally {
      setBusy(false);
    }
  };

  const scanned = async (ean: string) => {
    const product = await findByCode(ean);
    if (product) await add(product, 1);
    else setOutcome({ kind: 'error', text: t('fieldSales.cart.quick.unknown', { code: ean }) });
  };

  return (
    <section className="card quick-entry" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('fieldSales.cart.quick.title')}</h2>
      <form className="quick-entry__form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="form-field quick-entry__code">
          <label htmlFor={`${id}-code`}>{t('fieldSales.cart.quick.code')}</label>
          <ProductCombobox
            id={`${id}-code`}
            inputRef={codeField}
            enterKeyHint="done"
            describedBy={`${id}-hint`}
            value={typed}
            onValueChange={(value) => {
              setTyped(value);
              setOutcome(null);
            }}
            suggestions={suggestions}
            open={listOpen}
            onOpenChange={setListOpen}
            onChoose={choose}
            listLabel={t('fieldSales.cart.quick.suggestions')}
            renderOption={(product) => (
              <ProductOption
                name={nameOf(product)}
                sku={product.sku}
                price={product.price === undefined ? '' : formatMoney(product.price, i18n.language)}
                stockNote={product.stock <= 0 ? t('fieldSales.cart.quick.noStock') : undefined}
              />
            )}
          />
          <p id={`${id}-hint`} className="form-field__hint">
            {t('fieldSales.cart.quick.hint')}
          </p>
        </div>
        <div className="form-field quick-entry__quantity">
          <label htmlFor={`${id}-quantity`}>{t('fieldSales.cart.quick.quantity')}</label>
          <input
            ref={quantityField}
            id={`${id}-quantity`}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={quantity}
            onChange={(event) => setQuantity(event.target.value)}
          />
        </div>
        <button type="submit" className="button quick-entry__add" disabled={busy}>
          {t('fieldSales.cart.quick.add')}
        </button>
        <button
          type="button"
          className="button button--ghost quick-entry__scan"
          onClick={() => {
            setOutcome(null);
            setScannerUsed(true);
            setScanning(true);
          }}
        >
          {t('fieldSales.scan.open')}
        </button>
      </form>
      <p
        className={`quick-entry__outcome${outcome?.kind === 'error' ? ' quick-entry__outcome--error' : ''}`}
        role="status"
      >
        {scanning ? '' : outcome?.text}
      </p>
      {scannerUsed && (
        <Suspense fallback={null}>
          <BarcodeScanner
            open={scanning}
            outcome={outcome}
            onCode={(ean) => void scanned(ean)}
            onClose={() => setScanning(false)}
          />
        </Suspense>
      )}
    </section>
  );
}
