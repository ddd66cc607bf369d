import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MAX_PRODUCT_NAME_LENGTH,
  type AdminCategory,
  type AdminCategoryNames,
} from '../../contracts/admin-catalogue';
import { validateCategoryNames } from '../../contracts/form-schemas';
import { LANGUAGES } from '../../contracts/languages';
import { Banner } from '../../components/banner';
import { FormField } from '../../components/form-field';
import { useToast } from '../../components/toast';
import {
  createCategory,
  fetchAdminCategories,
  orderCategories,
  renameCategory,
} from '../../lib/api/admin-catalogue';
import { categoryLabel, changeFailure } from './catalogue-texts';
import { useMoveFocus } from './move-focus';
import { StaffDataNotice, StaffPage, useOffline } from './staff-page';
import { TableScroll } from './table-scroll';
import { useStaffAction } from './use-staff-action';
import { useStaffData } from './use-staff-data';

const NO_NAMES: AdminCategoryNames = { ro: '', en: '', it: '' };

export function CategoriesPage() {
  const { t, i18n } = useTranslation();
  const notify = useToast();
  const offline = useOffline();
  const loaded = useStaffData('categories', fetchAdminCategories);
  const action = useStaffAction();
  const [changed, setChanged] = useState<AdminCategory[] | null>(null);
  const [renaming, setRenaming] = useState<number | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const list = changed ?? loaded.data?.categories;
  const focusMoved = useMoveFocus(action.busy);

  const move = async (from: number, to: number) => {
    if (!list) return;
    setBanner(null);
    const ids = list.map((category) => category.id);
    const [moved] = ids.splice(from, 1);
    if (moved === undefined) return;
    ids.splice(to, 0, moved);
    const result = await action.run(JSON.stringify(['order', ids]), (key) =>
      orderCategories(ids, key),
    );
    if (result.ok) {
      notify(t('admin.catalogue.categories.moved'));
      setChanged(result.value.categories);
      focusMoved(String(moved), to < from);
    } else {
      setBanner(changeFailure(t, result.failure, t('admin.catalogue.categories.failed')));
    }
  };

  const saved = (category: AdminCategory, created: boolean) => {
    notify(t(created ? 'admin.catalogue.categories.created' : 'admin.catalogue.categories.saved'));
    setRenaming(null);
    const current = list ?? [];
    setChanged(
      created
        ? [...current, category]
        : current.map((old) => (old.id === category.id ? category : old)),
    );
  };

  return (
    <StaffPage
      title={t('admin.catalogue.categories.title')}
      description={t('admin.catalogue.categories.description')}
      path="/admin/categories"
    >
      <h1>{t('admin.catalogue.categories.title')}</h1>
      <StaffDataNotice result={loaded} />
      {banner && <Banner kind="error">{banner}</Banner>}
      {list &&
        (list.length === 0 ? (
          <p className="empty-state">{t('admin.catalogue.categories.empty')}</p>
        ) : (
          <TableScroll labelledBy="staff-categories-caption">
            <table className="staff-table">
              <caption id="staff-categories-caption" className="visually-hidden">
                {t('admin.catalogue.categories.caption')}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('admin.catalogue.categories.columns.name')}</th>
                  <th scope="col">{t('admin.catalogue.categories.columns.products')}</th>
                  <th scope="col">{t('admin.catalogue.categories.columns.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {list.map((category, i) => {
                  const name = categoryLabel(category, i18n.language);
                  return (
                    <tr key={category.id}>
                      <th scope="row">{name}</th>
                      <td>{category.products}</td>
                      <td>
                        <div className="staff-row-actions" role="group" aria-label={name}>
                          <button
                            type="button"
                            className="button button--small button--ghost"
                            data-move={category.id}
                            disabled={action.busy || offline || i === 0}
                            onClick={() => void move(i, i - 1)}
                          >
                            {t('admin.catalogue.pictures.moveUp')}
                          </button>
                          <button
                            type="button"
                            className="button button--small button--ghost"
                            data-move={category.id}
                            disabled={action.busy || offline || i === list.length - 1}
                            onClick={() => void move(i, i + 1)}
                          >
                            {t('admin.catalogue.pictures.moveDown')}
                          </button>
                          <button
                            type="button"
                            className="button button--small"
                            aria-expanded={renaming === category.id}
                            onClick={() =>
                              setRenaming(renaming === category.id ? null : category.id)
                            }
                          >
                            {t('admin.catalogue.categories.rename')}
                          </button>
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
        ))}
      {list &&
        list
          .filter((category) => category.id === renaming)
          .map((category) => (
            <NamesForm
              key={category.id}
              category={category}
              onSaved={(updated) => saved(updated, false)}
              onCancel={() => setRenaming(null)}
            />
          ))}
      {list && <NamesForm key={list.length} onSaved={(created) => saved(created, true)} />}
    </StaffPage>
  );
}

/** A category's names in the three languages: a new one's, or a rename. */
function NamesForm({
  category,
  onSaved,
  onCancel,
}: {
  category?: AdminCategory;
  onSaved: (category: AdminCategory) => void;
  onCancel?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const offline = useOffline();
  const action = useStaffAction();
  const [names, setNames] = useState<AdminCategoryNames>(category?.names ?? NO_NAMES);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [banner, setBanner] = useState<string | null>(null);
  const prefix = category ? `staff-rename-${category.id}` : 'staff-new-category';
  const title = category
    ? t('admin.catalogue.categories.renameTitle', { name: categoryLabel(category, i18n.language) })
    : t('admin.catalogue.categories.new');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBanner(null);
    const problems = validateCategoryNames(names);
    if (problems.length > 0) {
      setErrors(
        Object.fromEntries(
          problems.map(({ field, code }) => [field, t(`admin.catalogue.errors.${code}`)]),
        ),
      );
      return;
    }
    const result = await action.run(JSON.stringify([category?.id ?? 'new', names]), (key) =>
      category ? renameCategory(category.id, names, key) : createCategory(names, key),
    );
    if (result.ok) {
      if (!category) setNames(NO_NAMES);
      onSaved(result.value.category);
      return;
    }
    setBanner(changeFailure(t, result.failure, t('admin.catalogue.categories.failed')));
  };

  return (
    <form
      className="card staff-edit"
      noValidate
      aria-labelledby={`${prefix}-title`}
      onSubmit={(event) => void submit(event)}
    >
      <h2 id={`${prefix}-title`}>{title}</h2>
      {banner && <Banner kind="error">{banner}</Banner>}
      <div className="form-grid">
        {LANGUAGES.map((language) => (
          <FormField
            key={language}
            label={t('admin.catalogue.categories.nameIn', {
              language: t(`admin.catalogue.form.language.${language}`),
            })}
            autoComplete="off"
            maxLength={MAX_PRODUCT_NAME_LENGTH}
            required={language === 'ro'}
            value={names[language]}
            error={errors[`name.${language}`]}
            onChange={(event) => {
              setNames((current) => ({ ...current, [language]: event.target.value }));
              setErrors((current) => ({ ...current, [`name.${language}`]: undefined }));
            }}
          />
        ))}
      </div>
      <div className="card__actions">
        {onCancel && (
          <button type="button" className="button button--ghost" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        )}
        <button type="submit" className="button" disabled={action.busy || offline}>
          {action.busy
            ? t('admin.sending')
            : category
              ? t('admin.catalogue.categories.save')
              : t('admin.catalogue.categories.create')}
        </button>
      </div>
    </form>
  );
}
