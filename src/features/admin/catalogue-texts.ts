/** The catalogue staff screens' words: names in the staff member's language, failures. */
import type { TFunction } from 'i18next';
import type { AdminCategory, AdminProduct } from '../../contracts/admin-catalogue';
import { failureText, type CallFailure } from '../../lib/api/failure';
// The catalogue screens' styles, with the module every one of them loads: imported by the
// pages themselves, they would make a chunk of styles alone, which the build drops.
import './catalogue.css';

/** A category's name in the staff member's language, Romanian when it has none. */
export function categoryLabel(category: AdminCategory, language: string): string {
  const names: Record<string, string> = category.names;
  return names[language] || category.names.ro;
}

/** A product's name in the staff member's language, Romanian when it has none. */
export function productName(product: AdminProduct, language: string): string {
  const texts: Record<string, { name: string } | undefined> = product.texts;
  return texts[language]?.name || product.texts.ro.name;
}

/** Says why a change was not made: offline, the server's refusal, or a failure. */
export function changeFailure(t: TFunction, failure: CallFailure, refused: string): string {
  return failureText(t, failure, { offline: t('admin.needsNetwork'), refused });
}
