import { useId, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { canSeePrices } from '../../contracts/accounts';
import { productTexts, type Product } from '../../contracts/catalogue';
import { Banner } from '../../components/banner';
import { ScreenMeta } from '../screen-meta';
import { ProductCombobox, ProductOption } from '../../components/product-combobox';
import { useUser } from '../../lib/auth/session';
import { formatMoney } from '../../lib/i18n';
import { productsBySku, suggestProducts } from '../../lib/sync/catalogue-lookup';
import { useDeviceQuery } from '../../lib/sync/engine-loader';
import { addLinesToCart } from '../../lib/sync/outbox';
import { useCart, useOrders } from '../../lib/sync/use-device-data';
import {
  checkLines,
  isBlank,
  MAX_QUICK_ORDER_LINES,
  readCsv,
  readPastedLines,
  skuKey,
  type EnteredLine,
  type LineCheck,
  type ReadResult,
} from './quick-order-lines';
import '../screens.css';
import './quick-order.css';
import { UnverifiedNotice } from '../cart/unverified-notice';

/** Empty rows the page starts with, ready to type in. */
const EMPTY_ROWS = 3;
/** Fewest characters typed before suggestions are listed. */
const MIN_SEARCH_LENGTH = 2;

interface Row {
  key: number;
  line: EnteredLine;
}

const blankLine = (): EnteredLine => ({ sku: '', quantity: '' });

/**
 * Many lines into the cart at once (docs/product.md#quick-order): rows of SKU and quantity
 * with suggestions from the device's catalogue, lines pasted or read from a CSV file. Every
 * line is checked first; nothing is added while one is wrong.
 */
export function QuickOrderPage() {
  const { t } = useTranslation();
  const user = useUser();
  const approved = canSeePrices(user?.company);
  const { cart } = useCart();
  const orders = useOrders();
  const catalogue = useDeviceQuery(
    async ({ db }) => ({
      complete: (await db.mirrorState.get('catalogue'))?.complete === true,
      bySku: await productsBySku(db),
    }),
    [],
  );
  const nextKey = useRef(0);
  const rowsOf = (lines: EnteredLine[]): Row[] =>
    lines.map((line) => ({ key: (nextKey.current += 1), line }));
  const [rows, setRows] = useState<Row[]>(() =>
    rowsOf(Array.from({ length: EMPTY_ROWS }, blankLine)),
  );
  const [showProblems, setShowProblems] = useState(false);
  const [pasted, setPasted] = useState('');
  const [pasteProblem, setPasteProblem] = useState<string | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [formProblem, setFormProblem] = useState<string | null>(null);
  const [news, setNews] = useState<{ text: string; toCart: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  const lookup = useMemo(() => {
    const bySku = catalogue?.bySku ?? new Map<string, Product>();
    // SKUs the salon ordered or holds in its cart, that the catalogue no longer has.
    const known = [
      ...(orders ?? []).flatMap(({ order }) => order.orderItems.map((item) => item.productSku)),
      ...cart.items.map((item) => item.product.sku),
    ].map(skuKey);
    return { bySku, noLongerSold: new Set(known.filter((key) => !bySku.has(key))) };
  }, [catalogue, orders, cart]);
  const inCart = useMemo(
    () => new Map(cart.items.map((item) => [item.productId, item.quantity])),
    [cart],
  );
  const check = useMemo(
    () =>
      checkLines(
        rows.map((row) => row.line),
        lookup,
        inCart,
      ),
    [rows, lookup, inCart],
  );
  const ready = catalogue?.complete === true;

  const change = (key: number, line: EnteredLine) => {
    setNews(null);
    setRows((current) => current.map((row) => (row.key === key ? { ...row, line } : row)));
  };
  const remove = (key: number) => {
    setRows((current) => {
      const left = current.filter((row) => row.key !== key);
      return left.length > 0 ? left : rowsOf([blankLine()]);
    });
  };

  /** Adds the lines read to the rows (in place of the blank ones); false when too many. */
  const take = (read: ReadResult, problem: (text: string | null) => void): boolean => {
    if (!read.ok) {
      problem(t(`quickOrder.read.${read.problem}`));
      return false;
    }
    const kept = rows.filter((row) => !isBlank(row.line));
    const total = kept.length + read.lines.length;
    if (total > MAX_QUICK_ORDER_LINES) {
      problem(t('quickOrder.read.tooMany', { max: MAX_QUICK_ORDER_LINES, count: total }));
      return false;
    }
    problem(null);
    setRows([...kept, ...rowsOf(read.lines)]);
    setShowProblems(true);
    setFormProblem(null);
    setNews({ text: t('quickOrder.read.done', { count: read.lines.length }), toCart: false });
    return true;
  };

  const readPaste = () => {
    if (take(readPastedLines(pasted), setPasteProblem)) setPasted('');
  };

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    let text: string;
    try {
      text = await file.text();
    } catch {
      setFileProblem(t('quickOrder.read.unreadable'));
      return;
    }
    take(readCsv(text), setFileProblem);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setShowProblems(true);
    setNews(null);
    if (!ready) return setFormProblem(t('quickOrder.noCatalogue'));
    if (check.filled === 0) return setFormProblem(t('quickOrder.nothing'));
    if (check.wrong > 0) {
      setFormProblem(t('quickOrder.fix', { count: check.wrong }));
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    if (check.tooManyProducts)
      return setFormProblem(t('quickOrder.cartFull', check.tooManyProducts));
    setBusy(true);
    try {
      await addLinesToCart(check.additions);
      setFormProblem(null);
      setShowProblems(false);
      setRows(rowsOf(Array.from({ length: EMPTY_ROWS }, blankLine)));
      setNews({ text: t('quickOrder.added', { count: check.additions.length }), toCart: true });
    } catch {
      setFormProblem(t('quickOrder.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page quick-order">
      <ScreenMeta
        title={t('quickOrder.title')}
        description={t('quickOrder.description')}
        path="/orders/quick"
      />
      <h1>{t('quickOrder.title')}</h1>
      <p>{t('quickOrder.intro')}</p>
      <p className="quick-order__links">
        <Link to="/cart">{t('quickOrder.toCart')}</Link>
        <Link to="/orders">{t('quickOrder.toOrders')}</Link>
      </p>
      <UnverifiedNotice company={user?.company} />
      {catalogue !== undefined && !ready && (
        <p className="notice notice--offline">{t('quickOrder.noCatalogue')}</p>
      )}

      <section className="card quick-order__import" aria-labelledby="quick-order-import">
        <h2 id="quick-order-import">{t('quickOrder.importTitle')}</h2>
        <div className={`form-field${pasteProblem ? ' has-error' : ''}`}>
          <label htmlFor="quick-order-paste">{t('quickOrder.pasteLabel')}</label>
          <textarea
            id="quick-order-paste"
            rows={6}
            spellCheck={false}
            value={pasted}
            aria-invalid={pasteProblem ? true : undefined}
            aria-describedby={`quick-order-paste-hint${pasteProblem ? ' quick-order-paste-error' : ''}`}
            onChange={(event) => {
              setPasted(event.target.value);
              setPasteProblem(null);
            }}
          />
          <p id="quick-order-paste-hint" className="form-field__hint">
            {t('quickOrder.pasteHint')}
          </p>
          {pasteProblem && (
            <p id="quick-order-paste-error" className="form-field__error" role="alert">
              {pasteProblem}
            </p>
          )}
        </div>
        <button
          type="button"
          className="button button--ghost"
          disabled={pasted.trim() === ''}
          onClick={readPaste}
        >
          {t('quickOrder.pasteRead')}
        </button>
        <div className={`form-field quick-order__file${fileProblem ? ' has-error' : ''}`}>
          <label htmlFor="quick-order-file">{t('quickOrder.fileLabel')}</label>
          <input
            id="quick-order-file"
            type="file"
            accept=".csv,text/csv,text/plain"
            aria-invalid={fileProblem ? true : undefined}
            aria-describedby={`quick-order-file-hint${fileProblem ? ' quick-order-file-error' : ''}`}
            onChange={(event) => void readFile(event)}
          />
          <p id="quick-order-file-hint" className="form-field__hint">
            {t('quickOrder.fileHint')}
          </p>
          {fileProblem && (
            <p id="quick-order-file-error" className="form-field__error" role="alert">
              {fileProblem}
            </p>
          )}
        </div>
      </section>

      <form
        ref={form}
        className="card quick-order__form"
        aria-labelledby="quick-order-lines"
        noValidate
        onSubmit={(event) => void submit(event)}
      >
        <h2 id="quick-order-lines">{t('quickOrder.linesTitle')}</h2>
        <ol className="quick-order__rows">
          {rows.map((row, index) => (
            <QuickOrderRow
              key={row.key}
              number={index + 1}
              line={row.line}
              check={check.lines[index] ?? {}}
              showProblems={showProblems}
              onChange={(line) => change(row.key, line)}
              onRemove={() => remove(row.key)}
            />
          ))}
        </ol>
        <button
          type="button"
          className="button button--ghost"
          disabled={rows.length >= MAX_QUICK_ORDER_LINES}
          onClick={() => setRows((current) => [...current, ...rowsOf([blankLine()])])}
        >
          {t('quickOrder.addRow')}
        </button>
        {formProblem && <Banner kind="error">{formProblem}</Banner>}
        <div className="quick-order__submit">
          <button
            type="submit"
            className="button button--large"
            disabled={busy || !approved}
            aria-busy={busy}
          >
            {t('quickOrder.submit')}
          </button>
          <p className="quick-order__news" role="status">
            {news?.text}
            {news?.toCart && (
              <>
                {' '}
                <Link to="/cart">{t('quickOrder.goToCart')}</Link>
              </>
            )}
          </p>
        </div>
      </form>
    </div>
  );
}

/** The text of a line's problem with its SKU, or with its quantity. */
function useProblemText() {
  const { t, i18n } = useTranslation();
  return (line: EnteredLine, check: LineCheck) => {
    const name = check.product ? productTexts(check.product, i18n.language).name : '';
    const sku =
      check.sku === undefined
        ? undefined
        : t(`quickOrder.problem.${check.sku}`, { sku: line.sku.trim(), name });
    const quantity =
      check.quantity === undefined
        ? undefined
        : check.quantity === 'overStock' && (check.inCart ?? 0) > 0
          ? t('quickOrder.problem.overStockInCart', {
              available: check.available,
              stock: check.stock,
              inCart: check.inCart,
            })
          : t(`quickOrder.problem.${check.quantity}`, {
              available: check.available,
              stock: check.stock,
            });
    return { sku, quantity };
  };
}

function QuickOrderRow({
  number,
  line,
  check,
  showProblems,
  onChange,
  onRemove,
}: {
  number: number;
  line: EnteredLine;
  check: LineCheck;
  showProblems: boolean;
  onChange: (line: EnteredLine) => void;
  onRemove: () => void;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const quantityField = useRef<HTMLInputElement>(null);
  const [focused, setFocused] = useState(false);
  const [open, setOpen] = useState(false);
  const search = focused && line.sku.trim().length >= MIN_SEARCH_LENGTH ? line.sku : '';
  const found = useDeviceQuery(() => suggestProducts(search), [search]);
  const suggestions = search !== '' ? (found ?? []) : [];
  const problems = useProblemText()(line, check);
  const skuProblem = showProblems ? problems.sku : undefined;
  const quantityProblem = showProblems ? problems.quantity : undefined;
  const product = check.product;
  const nameOf = (p: Product) => productTexts(p, i18n.language).name;
  const ids = (...parts: (string | false | undefined)[]) =>
    parts.filter((part): part is string => typeof part === 'string').join(' ') || undefined;
  const rowLabel = (
    <span className="visually-hidden"> {t('quickOrder.rowNumber', { row: number })}</span>
  );

  return (
    <li className="quick-order__row" data-testid="quick-order-row">
      <div className={`form-field quick-order__sku${skuProblem ? ' has-error' : ''}`}>
        <label htmlFor={`${id}-sku`}>
          {t('quickOrder.sku')}
          {rowLabel}
        </label>
        <ProductCombobox
          id={`${id}-sku`}
          value={line.sku}
          onValueChange={(sku) => onChange({ ...line, sku, unreadable: false })}
          suggestions={suggestions}
          open={open}
          onOpenChange={setOpen}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onChoose={(chosen) => {
            onChange({ ...line, sku: chosen.sku, unreadable: false });
            quantityField.current?.focus();
            quantityField.current?.select();
          }}
          listLabel={t('quickOrder.suggestions')}
          renderOption={(option) => (
            <ProductOption
              name={nameOf(option)}
              sku={option.sku}
              price={option.price === undefined ? '' : formatMoney(option.price, i18n.language)}
              stockNote={option.stock <= 0 ? t('quickOrder.noStock') : undefined}
            />
          )}
          invalid={skuProblem !== undefined}
          describedBy={ids(product && `${id}-product`, skuProblem && `${id}-sku-error`)}
        />
        {product && (
          <p id={`${id}-product`} className="form-field__hint">
            {nameOf(product)}
            {product.price !== undefined && ` · ${formatMoney(product.price, i18n.language)}`}
            {' · '}
            {product.stock > 0
              ? t('quickOrder.inStock', { stock: product.stock })
              : t('quickOrder.noStock')}
          </p>
        )}
        {skuProblem && (
          <p id={`${id}-sku-error`} className="form-field__error">
            {skuProblem}
          </p>
        )}
      </div>
      <div className={`form-field quick-order__quantity${quantityProblem ? ' has-error' : ''}`}>
        <label htmlFor={`${id}-quantity`}>
          {t('quickOrder.quantity')}
          {rowLabel}
        </label>
        <input
          ref={quantityField}
          id={`${id}-quantity`}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={line.quantity}
          aria-invalid={quantityProblem ? true : undefined}
          aria-describedby={ids(
            quantityProblem && `${id}-quantity-error`,
            check.sameAs && `${id}-same`,
          )}
          onChange={(event) => onChange({ ...line, quantity: event.target.value })}
        />
        {quantityProblem && (
          <p id={`${id}-quantity-error`} className="form-field__error">
            {quantityProblem}
          </p>
        )}
      </div>
      <button
        type="button"
        className="button button--ghost button--small quick-order__remove"
        aria-label={t('quickOrder.removeRow', { row: number })}
        onClick={onRemove}
      >
        {t('quickOrder.remove')}
      </button>
      {check.sameAs && (
        <p id={`${id}-same`} className="form-field__hint quick-order__same">
          {t('quickOrder.sameAs', { rows: check.sameAs.map((index) => index + 1).join(', ') })}
        </p>
      )}
    </li>
  );
}
