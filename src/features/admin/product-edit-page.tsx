import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_PRODUCT_NAME_LENGTH,
  MAX_SHORT_DESCRIPTION_LENGTH,
  MAX_SKU_LENGTH,
  PRODUCT_ERROR_CODES,
  PRODUCT_TEXT_FIELDS,
  priceOf,
  productEdit,
  stockOf,
  tagsOf,
  type AdminCategory,
  type AdminProduct,
  type AdminProductInput,
  type ProductValues,
} from '../../contracts/admin-catalogue';
import { eanOf } from '../../contracts/barcodes';
import { validateProduct } from '../../contracts/form-schemas';
import { LANGUAGES, type Language } from '../../contracts/languages';
import { Banner } from '../../components/banner';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormField } from '../../components/form-field';
import { useToast } from '../../components/toast';
import type { ApiErrorBody } from '../../lib/api/errors';
import {
  createProduct,
  deleteProduct,
  editProduct,
  fetchAdminCategories,
  fetchAdminProduct,
  setProductActive,
} from '../../lib/api/admin-catalogue';
import { categoryLabel, changeFailure, productName } from './catalogue-texts';
import { ProductPictures } from './product-pictures';
import { StaffDataNotice, StaffPage, useOffline } from './staff-page';
import { useStaffAction } from './use-staff-action';
import { useStaffData } from './use-staff-data';

type Errors = Partial<Record<string, string>>;

const TEXT_LIMITS = {
  name: MAX_PRODUCT_NAME_LENGTH,
  shortDescription: MAX_SHORT_DESCRIPTION_LENGTH,
  description: MAX_DESCRIPTION_LENGTH,
} as const;

const EMPTY: ProductValues = {
  sku: '',
  ean: '',
  price: '',
  stock: '0',
  categoryId: '',
  tags: [],
  texts: {
    ro: { name: '', shortDescription: '', description: '' },
    en: { name: '', shortDescription: '', description: '' },
    it: { name: '', shortDescription: '', description: '' },
  },
};

const valuesOf = (product: AdminProduct): ProductValues => ({
  sku: product.sku,
  ean: product.ean ?? '',
  price: product.price.toFixed(2),
  stock: String(product.stock),
  categoryId: String(product.categoryId),
  tags: product.tags,
  texts: product.texts,
});

/** A rule's message by its code (the shared rules' and the server's), else the server's words. */
function errorText(t: TFunction, code: string | undefined, message: string): string {
  const known = PRODUCT_ERROR_CODES.find((c) => c === code);
  return known ? String(t(`admin.catalogue.errors.${known}`)) : message;
}

/** The server's reasons at their fields (`name.en`, `sku`…), in the staff member's language. */
function serverErrors(t: TFunction, body: ApiErrorBody | undefined): Errors {
  const errors: Errors = {};
  for (const detail of body?.details ?? []) {
    errors[detail.field] ??= errorText(t, detail.code, detail.message);
  }
  return errors;
}

const productId = (param: string | undefined): number | undefined =>
  param && /^\d{1,9}$/.test(param) && Number(param) >= 1 ? Number(param) : undefined;

export function ProductEditPage() {
  const { t } = useTranslation();
  const param = useParams().id;
  const id = productId(param);
  const isNew = param === undefined;
  return (
    <StaffPage
      title={isNew ? t('admin.catalogue.form.newTitle') : t('admin.catalogue.list.title')}
      description={t('admin.catalogue.form.description')}
      path={isNew ? '/admin/products/new' : '/admin/products'}
    >
      <BackLink />
      {isNew ? (
        <NewProduct />
      ) : id === undefined ? (
        <NotFound />
      ) : (
        <ExistingProduct key={id} id={id} />
      )}
    </StaffPage>
  );
}

/** Back to the list the staff member came from, with its filters. */
function BackLink() {
  const { t } = useTranslation();
  const list = (useLocation().state as { list?: string } | null)?.list;
  return (
    <p className="staff-back">
      <Link to={list ? `/admin/products?${list}` : '/admin/products'}>
        ‹ {t('admin.catalogue.form.back')}
      </Link>
    </p>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <div className="empty-state" role="alert">
      <h1>{t('admin.catalogue.form.notFound')}</h1>
    </div>
  );
}

function NewProduct() {
  const { t } = useTranslation();
  const categories = useStaffData('categories', fetchAdminCategories);
  return (
    <>
      <h1>{t('admin.catalogue.form.newTitle')}</h1>
      <StaffDataNotice result={categories} />
      {categories.data && <ProductForm categories={categories.data.categories} />}
      <section className="card" aria-labelledby="staff-pictures-title">
        <h2 id="staff-pictures-title">{t('admin.catalogue.pictures.title')}</h2>
        <p>{t('admin.catalogue.pictures.saveFirst')}</p>
      </section>
    </>
  );
}

function ExistingProduct({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const loaded = useStaffData(`product ${id}`, (signal) => fetchAdminProduct(id, signal));
  const categories = useStaffData('categories', fetchAdminCategories);
  // The last answer of a change, shown until the product is read again.
  const [changed, setChanged] = useState<AdminProduct | null>(null);
  const product = changed ?? loaded.data?.product;
  if (loaded.failure?.kind === 'refused' && loaded.failure.status === 404) return <NotFound />;
  return (
    <>
      <h1>
        {product
          ? t('admin.catalogue.form.editTitle', { name: productName(product, i18n.language) })
          : t('admin.catalogue.list.title')}
      </h1>
      <StaffDataNotice result={loaded} />
      <StaffDataNotice result={categories} />
      {product && categories.data && (
        <>
          <ProductForm
            product={product}
            categories={categories.data.categories}
            onSaved={setChanged}
          />
          <ProductPictures product={product} onChanged={setChanged} />
          <SaleCard product={product} onChanged={setChanged} />
        </>
      )}
    </>
  );
}

/**
 * A product's data and texts, checked with the rules the server applies again. On a
 * refusal or a failure everything typed stays, with the reasons at their fields.
 */
function ProductForm({
  product,
  categories,
  onSaved,
}: {
  product?: AdminProduct;
  categories: AdminCategory[];
  onSaved?: (product: AdminProduct) => void;
}) {
  const { t, i18n } = useTranslation();
  const notify = useToast();
  const navigate = useNavigate();
  const offline = useOffline();
  const action = useStaffAction();
  const [values, setValues] = useState<ProductValues>(() => (product ? valuesOf(product) : EMPTY));
  // What this form started from, with what it saved since: a save sends only what the clerk
  // changed against it. Against the server's latest copy, a text another clerk saved
  // meanwhile (still shown here as loaded) would look changed, and be sent back over theirs.
  const [baseline, setBaseline] = useState(product);
  const [tags, setTags] = useState(() => values.tags.join(', '));
  const [errors, setErrors] = useState<Errors>({});
  const [banner, setBanner] = useState<string | null>(null);

  const set = (field: 'sku' | 'ean' | 'price' | 'stock' | 'categoryId', value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const setText = (
    language: Language,
    field: keyof ProductValues['texts']['ro'],
    value: string,
  ) => {
    setValues((current) => ({
      ...current,
      texts: { ...current.texts, [language]: { ...current.texts[language], [field]: value } },
    }));
    setErrors((current) => ({ ...current, [`${field}.${language}`]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBanner(null);
    const checked = { ...values, sku: values.sku.trim(), tags: tagsOf(tags) };
    const problems = validateProduct(checked);
    if (problems.length > 0) {
      setErrors(
        Object.fromEntries(
          problems.map(({ field, code }) => [field, t(`admin.catalogue.errors.${code}`)]),
        ),
      );
      setBanner(t('validation.reviewFields'));
      return;
    }
    const input: AdminProductInput = {
      sku: checked.sku,
      ean: eanOf(checked.ean) || null,
      price: priceOf(checked.price) ?? 0,
      stock: stockOf(checked.stock) ?? 0,
      categoryId: Number(checked.categoryId),
      tags: checked.tags,
      texts: checked.texts,
    };
    const edit = baseline ? productEdit(input, baseline) : null;
    if (edit && Object.keys(edit).length === 0) {
      notify(t('admin.catalogue.form.unchanged'), 'info');
      return;
    }
    const result = await action.run(JSON.stringify([product?.id ?? 'new', edit ?? input]), (key) =>
      product && edit ? editProduct(product.id, edit, key) : createProduct(input, key),
    );
    if (result.ok) {
      if (baseline) {
        setBaseline({ ...baseline, ...input });
        notify(t('admin.catalogue.form.saved'));
        onSaved?.(result.value.product);
      } else {
        notify(t('admin.catalogue.form.created'));
        void navigate(`/admin/products/${result.value.product.id}`, { replace: true });
      }
      return;
    }
    const { failure } = result;
    if (failure.kind === 'refused') setErrors(serverErrors(t, failure.body));
    setBanner(changeFailure(t, failure, t('admin.catalogue.form.failed')));
  };

  return (
    <form
      className="card staff-product-form"
      noValidate
      aria-labelledby="staff-product-facts"
      onSubmit={(event) => void submit(event)}
    >
      {banner && <Banner kind="error">{banner}</Banner>}
      <fieldset>
        <legend id="staff-product-facts">{t('admin.catalogue.form.facts')}</legend>
        <div className="form-grid">
          <FormField
            label={t('admin.catalogue.form.sku')}
            autoComplete="off"
            maxLength={MAX_SKU_LENGTH}
            required
            value={values.sku}
            error={errors.sku}
            onChange={(event) => set('sku', event.target.value.toUpperCase())}
          />
          <FormField
            label={t('admin.catalogue.form.ean')}
            hint={t('admin.catalogue.form.eanHint')}
            inputMode="numeric"
            autoComplete="off"
            value={values.ean}
            error={errors.ean}
            onChange={(event) => set('ean', event.target.value)}
          />
          <FormField
            label={t('admin.catalogue.form.price')}
            inputMode="decimal"
            autoComplete="off"
            required
            value={values.price}
            error={errors.price}
            onChange={(event) => set('price', event.target.value)}
          />
          <FormField
            label={t('admin.catalogue.form.stock')}
            inputMode="numeric"
            autoComplete="off"
            required
            value={values.stock}
            error={errors.stock}
            onChange={(event) => set('stock', event.target.value)}
          />
          <div className={`form-field${errors.categoryId ? ' has-error' : ''}`}>
            <label htmlFor="staff-product-category">{t('admin.catalogue.form.category')}</label>
            <select
              id="staff-product-category"
              required
              value={values.categoryId}
              aria-invalid={errors.categoryId ? true : undefined}
              aria-describedby={errors.categoryId ? 'staff-product-category-error' : undefined}
              onChange={(event) => set('categoryId', event.target.value)}
            >
              <option value="">{t('admin.catalogue.form.chooseCategory')}</option>
              {categories.map((category) => (
                <option key={category.id} value={category.id}>
                  {categoryLabel(category, i18n.language)}
                </option>
              ))}
            </select>
            {errors.categoryId && (
              <p id="staff-product-category-error" className="form-field__error">
                {errors.categoryId}
              </p>
            )}
          </div>
          <FormField
            label={t('admin.catalogue.form.tags')}
            hint={t('admin.catalogue.form.tagsHint')}
            autoComplete="off"
            value={tags}
            error={errors.tags}
            onChange={(event) => {
              setTags(event.target.value);
              setErrors((current) => ({ ...current, tags: undefined }));
            }}
          />
        </div>
      </fieldset>
      <p className="form-field__hint" id="staff-texts-hint">
        {t('admin.catalogue.form.textsHint')}
      </p>
      {LANGUAGES.map((language) => (
        <fieldset key={language} className="staff-texts" aria-describedby="staff-texts-hint">
          <legend>
            {t('admin.catalogue.form.texts')} — {t(`admin.catalogue.form.language.${language}`)}
          </legend>
          {PRODUCT_TEXT_FIELDS.map((field) => {
            const name = `${field}.${language}`;
            const id = `staff-product-${field}-${language}`;
            const label =
              field === 'description'
                ? t('admin.catalogue.form.descriptionText')
                : t(`admin.catalogue.form.${field}`);
            const labelled = `${label} (${t(`admin.catalogue.form.language.${language}`)})`;
            const value = values.texts[language][field];
            const error = errors[name];
            const common = {
              id,
              value,
              maxLength: TEXT_LIMITS[field],
              'aria-invalid': error ? true : undefined,
              'aria-describedby': error ? `${id}-error` : undefined,
              required: field === 'name' && language === 'ro',
            };
            return (
              <div key={field} className={`form-field${error ? ' has-error' : ''}`}>
                <label htmlFor={id}>{labelled}</label>
                {field === 'name' ? (
                  <input
                    {...common}
                    autoComplete="off"
                    onChange={(event) => setText(language, field, event.target.value)}
                  />
                ) : (
                  <textarea
                    {...common}
                    rows={field === 'description' ? 5 : 2}
                    onChange={(event) => setText(language, field, event.target.value)}
                  />
                )}
                {error && (
                  <p id={`${id}-error`} className="form-field__error">
                    {error}
                  </p>
                )}
              </div>
            );
          })}
        </fieldset>
      ))}
      <div className="card__actions">
        <button type="submit" className="button" disabled={action.busy || offline}>
          {action.busy
            ? t('admin.sending')
            : product
              ? t('admin.catalogue.form.save')
              : t('admin.catalogue.form.create')}
        </button>
      </div>
    </form>
  );
}

/** On sale or not, and deleting a product never ordered. */
function SaleCard({
  product,
  onChanged,
}: {
  product: AdminProduct;
  onChanged: (product: AdminProduct) => void;
}) {
  const { t, i18n } = useTranslation();
  const notify = useToast();
  const navigate = useNavigate();
  const offline = useOffline();
  const action = useStaffAction();
  const [asking, setAsking] = useState(false);
  const [banner, setBanner] = useState<string | null>(null);

  const toggle = async () => {
    setBanner(null);
    const active = !product.active;
    const result = await action.run(JSON.stringify(['active', product.id, active]), (key) =>
      setProductActive(product.id, active, key),
    );
    if (result.ok) {
      notify(t(active ? 'admin.catalogue.sale.activated' : 'admin.catalogue.sale.deactivated'));
      onChanged(result.value.product);
    } else {
      setBanner(changeFailure(t, result.failure, t('admin.catalogue.sale.failed')));
    }
  };

  const remove = async () => {
    setBanner(null);
    const result = await action.run(JSON.stringify(['delete', product.id]), (key) =>
      deleteProduct(product.id, key),
    );
    setAsking(false);
    if (result.ok) {
      notify(t('admin.catalogue.sale.deleted'));
      void navigate('/admin/products', { replace: true });
    } else {
      setBanner(changeFailure(t, result.failure, t('admin.catalogue.sale.failed')));
    }
  };

  return (
    <section className="card" aria-labelledby="staff-sale-title">
      <h2 id="staff-sale-title">{t('admin.catalogue.sale.title')}</h2>
      {banner && <Banner kind="error">{banner}</Banner>}
      <p>
        {t(
          product.active ? 'admin.catalogue.sale.activeText' : 'admin.catalogue.sale.inactiveText',
        )}
      </p>
      <div className="card__actions">
        <button
          type="button"
          className="button button--ghost"
          disabled={action.busy || offline}
          onClick={() => void toggle()}
        >
          {t(product.active ? 'admin.catalogue.sale.deactivate' : 'admin.catalogue.sale.activate')}
        </button>
        {!product.ordered && (
          <button
            type="button"
            className="button button--danger"
            disabled={action.busy || offline}
            onClick={() => setAsking(true)}
          >
            {t('admin.catalogue.sale.delete')}
          </button>
        )}
      </div>
      {product.ordered && (
        <p className="form-field__hint">{t('admin.catalogue.sale.orderedHint')}</p>
      )}
      <ConfirmDialog
        open={asking}
        title={t('admin.catalogue.sale.deleteConfirm', {
          name: productName(product, i18n.language),
        })}
        confirmLabel={t('admin.catalogue.sale.delete')}
        cancelLabel={t('common.cancel')}
        danger
        busy={action.busy}
        onConfirm={() => void remove()}
        onCancel={() => setAsking(false)}
      />
    </section>
  );
}
