import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PRODUCT_STATES } from '../../contracts/admin-catalogue';
import { fetchAdminCategories, fetchAdminProducts } from '../../lib/api/admin-catalogue';
import { formatMoney } from '../../lib/i18n';
import { categoryLabel, productName } from './catalogue-texts';
import {
  productsQuery,
  readProductsUrl,
  writeProductsUrl,
  type ProductsView,
} from './product-urls';
import { FilterSelect, StaffFilters, StaffResults, StaffTable } from './staff-list';
import { StaffPage } from './staff-page';
import { useStaffData } from './use-staff-data';

const SEARCH_ID = 'staff-product-search';
const CATEGORY_ID = 'staff-product-category';
const STATUS_ID = 'staff-product-status';
const LOW_ID = 'staff-product-low';

export function ProductsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const view = readProductsUrl(params);
  const query = productsQuery(view);
  const list = useStaffData(JSON.stringify(query), (signal) => fetchAdminProducts(query, signal));
  const categories = useStaffData('categories', fetchAdminCategories);

  const go = (change: Partial<ProductsView>) =>
    void navigate(writeProductsUrl({ ...view, page: 1, ...change }));
  const categoryOf = new Map(
    (categories.data?.categories ?? []).map((category) => [
      category.id,
      categoryLabel(category, i18n.language),
    ]),
  );
  const filtered = Boolean(view.search || view.categoryId || view.status || view.lowStock);

  return (
    <StaffPage
      title={t('admin.catalogue.list.title')}
      description={t('admin.catalogue.list.description')}
      path="/admin/products"
    >
      <div className="staff-heading">
        <h1>{t('admin.catalogue.list.title')}</h1>
        <Link className="button" to="/admin/products/new">
          {t('admin.catalogue.list.new')}
        </Link>
      </div>
      <StaffFilters
        texts="admin.catalogue.list"
        searchId={SEARCH_ID}
        search={view.search}
        onSearch={(search) => go({ search })}
        clearTo={
          filtered
            ? writeProductsUrl({
                search: '',
                categoryId: undefined,
                status: undefined,
                lowStock: false,
                page: 1,
              })
            : undefined
        }
      >
        <FilterSelect
          id={CATEGORY_ID}
          label={t('admin.catalogue.list.category')}
          allLabel={t('admin.catalogue.list.allCategories')}
          value={view.categoryId === undefined ? '' : String(view.categoryId)}
          options={(categories.data?.categories ?? []).map((category) => ({
            value: String(category.id),
            label: categoryLabel(category, i18n.language),
          }))}
          onChange={(value) => go({ categoryId: value ? Number(value) : undefined })}
        />
        <FilterSelect
          id={STATUS_ID}
          label={t('admin.catalogue.list.status')}
          allLabel={t('admin.catalogue.list.allStatuses')}
          value={view.status ?? ''}
          options={PRODUCT_STATES.map((state) => ({
            value: state,
            label: t(`admin.catalogue.state.${state}`),
          }))}
          onChange={(value) => go({ status: PRODUCT_STATES.find((state) => state === value) })}
        />
        <div className="form-field form-field--checkbox">
          <input
            id={LOW_ID}
            type="checkbox"
            checked={view.lowStock}
            onChange={(event) => go({ lowStock: event.target.checked })}
          />
          <label htmlFor={LOW_ID}>{t('admin.catalogue.list.lowStock')}</label>
        </div>
      </StaffFilters>

      <StaffResults
        texts="admin.catalogue.list"
        result={list}
        shown={(page) => page.products.length}
        hrefFor={(n) => writeProductsUrl({ ...view, page: n })}
      >
        {(page) => (
          <StaffTable
            captionId="staff-products-caption"
            caption={t('admin.catalogue.list.caption')}
            head={
              <>
                <th scope="col">{t('admin.catalogue.list.columns.name')}</th>
                <th scope="col">{t('admin.catalogue.list.columns.sku')}</th>
                <th scope="col">{t('admin.catalogue.list.columns.category')}</th>
                <th scope="col">{t('admin.catalogue.list.columns.price')}</th>
                <th scope="col">{t('admin.catalogue.list.columns.stock')}</th>
                <th scope="col">{t('admin.catalogue.list.columns.status')}</th>
              </>
            }
          >
            {page.products.map((product) => (
              <tr key={product.id}>
                <th scope="row">
                  <Link to={`/admin/products/${product.id}`} state={{ list: params.toString() }}>
                    {productName(product, i18n.language)}
                  </Link>
                </th>
                <td>{product.sku}</td>
                <td>{categoryOf.get(product.categoryId) ?? '—'}</td>
                <td>{formatMoney(product.price, i18n.language)}</td>
                <td>{product.stock}</td>
                <td>
                  <span
                    className={`chip ${product.active ? 'chip--company-approved' : 'chip--company-suspended'}`}
                  >
                    {t(`admin.catalogue.state.${product.active ? 'active' : 'inactive'}`)}
                  </span>
                </td>
              </tr>
            ))}
          </StaffTable>
        )}
      </StaffResults>
    </StaffPage>
  );
}
