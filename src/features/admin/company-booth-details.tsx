import { Fragment, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BoothDetailsEntry } from '../../contracts/admin';
import { Banner } from '../../components/banner';
import { useToast } from '../../components/toast';
import { dismissBoothDetails } from '../../lib/api/admin';
import { failureText } from '../../lib/api/failure';
import { formatDateTime } from '../../lib/i18n';
import { EDITABLE_FIELDS } from './company-edit-form';
import { repName } from './company-sales-rep';
import { useStaffAction } from './use-staff-action';

/**
 * What the company's sales reps typed at a booth that its record does not say
 * (docs/product.md#field-sales): each entry with who typed it and when, applied by opening
 * the record's form filled in with it, or dismissed. Nothing when there is none.
 */
export function CompanyBoothDetails({
  entries,
  offline,
  onApply,
  onDismissed,
  onAllGone,
}: {
  entries: BoothDetailsEntry[];
  offline: boolean;
  onApply: (entry: BoothDetailsEntry) => void;
  /** An entry was dismissed: the page reads the company again. */
  onDismissed: () => void;
  /** The last entry went: focus goes on from here, as this section is gone. */
  onAllGone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const notify = useToast();
  const action = useStaffAction();
  const [banner, setBanner] = useState<string | null>(null);
  const id = useId();
  const title = useRef<HTMLHeadingElement>(null);
  const dismissButtons = useRef(new Map<number, HTMLButtonElement>());
  // The entry dismissed, and the one whose Dismiss takes focus once the page has read the
  // company again without it (null: the section's heading, or beyond once it is gone).
  const focusAfter = useRef<{ gone: number; next: number | null } | null>(null);
  useEffect(() => {
    const after = focusAfter.current;
    if (!after || entries.some((entry) => entry.id === after.gone)) return;
    focusAfter.current = null;
    const next = after.next === null ? undefined : dismissButtons.current.get(after.next);
    if (next) next.focus();
    else if (entries.length > 0) title.current?.focus();
    else onAllGone();
  }, [entries, onAllGone]);

  if (entries.length === 0) return null;

  const dismiss = async (entry: BoothDetailsEntry) => {
    setBanner(null);
    const result = await action.run(JSON.stringify(['booth-details', entry.id]), (key) =>
      dismissBoothDetails(entry.id, key),
    );
    if (result.ok) {
      // A correction of the record may have applied it meanwhile: said as it was settled.
      notify(
        t(
          result.value.settledAs === 'applied'
            ? 'admin.boothDetails.appliedAlready'
            : 'admin.boothDetails.dismissed',
        ),
      );
      const index = entries.indexOf(entry);
      const next = entries[index + 1] ?? entries[index - 1];
      focusAfter.current = { gone: entry.id, next: next?.id ?? null };
      onDismissed();
      return;
    }
    setBanner(
      failureText(t, result.failure, {
        offline: t('admin.needsNetwork'),
        refused: t('admin.boothDetails.failed'),
      }),
    );
  };

  return (
    <section className="card staff-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={title} tabIndex={-1}>
        {t('admin.boothDetails.title')}
      </h2>
      <p>{t('admin.boothDetails.intro')}</p>
      {banner && <Banner kind="error">{banner}</Banner>}
      {offline && <p className="notice notice--offline">{t('admin.needsNetwork')}</p>}
      <ul className="staff-booth-details">
        {entries.map((entry) => {
          const by = `${id}-${entry.id}-by`;
          return (
            <li key={entry.id}>
              <p id={by}>
                {t('admin.boothDetails.typedBy', {
                  name: repName(entry.rep),
                  date: formatDateTime(entry.createdAt, i18n.language),
                })}
              </p>
              <dl className="details">
                {EDITABLE_FIELDS.flatMap((field) => {
                  const value = (entry.details as Partial<Record<typeof field, string>>)[field];
                  return value === undefined
                    ? []
                    : [
                        <Fragment key={field}>
                          <dt>{t(`admin.fields.${field}`)}</dt>
                          <dd>{value}</dd>
                        </Fragment>,
                      ];
                })}
              </dl>
              <div className="card__actions">
                <button
                  ref={(button) => {
                    if (button) dismissButtons.current.set(entry.id, button);
                    else dismissButtons.current.delete(entry.id);
                  }}
                  type="button"
                  className="button button--ghost"
                  aria-describedby={by}
                  disabled={offline || action.busy}
                  onClick={() => void dismiss(entry)}
                >
                  {action.busy ? t('admin.sending') : t('admin.boothDetails.dismiss')}
                </button>
                <button
                  type="button"
                  className="button"
                  aria-describedby={by}
                  disabled={offline}
                  onClick={() => onApply(entry)}
                >
                  {t('admin.boothDetails.apply')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
