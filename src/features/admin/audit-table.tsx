import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AuditEntry } from '../../contracts/admin';
import { formatDateTime, formatMoney, type TextKey } from '../../lib/i18n';
import { StaffTable } from './staff-list';

type Value = string | number | boolean | null | undefined;

/** The words of a recorded value: states and roles in the user's language, nothing as a dash. */
function useValueText() {
  const { t, i18n } = useTranslation();
  return (entry: AuditEntry, field: string, value: Value): string => {
    if (value === null || value === undefined || value === '') return '—';
    if (typeof value === 'boolean') return t(value ? 'admin.audit.yes' : 'admin.audit.no');
    if (entry.entityType === 'product' && field === 'price' && typeof value === 'number')
      return formatMoney(value, i18n.language);
    // Kept counted from 0; shown as the list counts, from 1.
    if (entry.entityType === 'category' && field === 'position' && typeof value === 'number')
      return String(value + 1);
    const text = String(value);
    const key: TextKey | undefined =
      field === 'status'
        ? entry.entityType === 'order'
          ? (`orders.status.${text}` as TextKey)
          : (`admin.status.${text}` as TextKey)
        : field === 'paymentStatus'
          ? (`orders.payment.${text}` as TextKey)
          : field === 'role'
            ? (`admin.people.roles.${text}` as TextKey)
            : entry.entityType === 'document' && field === 'type'
              ? (`documents.types.${text}` as TextKey)
              : undefined;
    return key ? String(t(key, { defaultValue: text })) : text;
  };
}

/**
 * The words of a changed field. Texts kept in each language are recorded as
 * `<field>.<language>` ("name.ro"): the field's words, then the language.
 */
function useFieldText() {
  const { t } = useTranslation();
  return (entry: AuditEntry, field: string): string => {
    const [base = field, language] = field.split('.');
    const key =
      entry.entityType === 'staff' && base === 'email'
        ? 'staffEmail'
        : (entry.entityType === 'product' || entry.entityType === 'category') && base === 'name'
          ? 'itemName'
          : entry.entityType === 'document' && base === 'type'
            ? 'documentType'
            : base;
    const words = String(t(`admin.audit.fields.${key}` as TextKey, { defaultValue: base }));
    return language ? `${words} (${language.toUpperCase()})` : words;
  };
}

/** Each field an entry changed, from what it was to what it became. */
function Changes({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const valueText = useValueText();
  const fieldText = useFieldText();
  const fields = [
    ...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})]),
  ];
  if (fields.length === 0) return <>—</>;
  return (
    <ul className="audit-changes">
      {fields.map((field) => (
        <li key={field}>
          <span className="audit-changes__field">{fieldText(entry, field)}</span>
          {': '}
          <del>{valueText(entry, field, entry.before?.[field])}</del>
          <span className="visually-hidden">{t('admin.audit.becomes')}</span>
          <span aria-hidden="true">{' → '}</span>
          <ins>{valueText(entry, field, entry.after?.[field])}</ins>
        </li>
      ))}
    </ul>
  );
}

/** What an entry's action was done to: a company links to its page. */
function Subject({ entry, linkCompany }: { entry: AuditEntry; linkCompany: boolean }) {
  const { t } = useTranslation();
  // The name read with the entry; an entity that no longer exists by its number.
  const name =
    entry.entityLabel !== null
      ? t(`admin.audit.named.${entry.entityType}`, { name: entry.entityLabel })
      : t(`admin.audit.entity.${entry.entityType}`, { id: entry.entityId });
  const companyId = entry.entityType === 'company' ? entry.entityId : entry.companyId;
  const companyName = entry.companyName;
  return (
    <>
      {name}
      {linkCompany && companyId !== null && (
        <>
          {' · '}
          <Link to={`/admin/companies/${companyId}`}>
            {companyName !== null
              ? t('admin.audit.openCompanyNamed', { name: companyName })
              : t('admin.audit.openCompany', { id: companyId })}
          </Link>
        </>
      )}
    </>
  );
}

/**
 * Staff actions, newest first (the server's order): who, when, what, the fields changed and
 * the note given. `linkCompany` adds a link to the company each entry concerns.
 */
export function AuditTable({
  entries,
  caption,
  linkCompany = true,
}: {
  entries: readonly AuditEntry[];
  caption: string;
  linkCompany?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const captionId = useId();
  return (
    <StaffTable
      captionId={captionId}
      caption={caption}
      className="audit-table"
      head={
        <>
          <th scope="col">{t('admin.audit.columns.at')}</th>
          <th scope="col">{t('admin.audit.columns.actor')}</th>
          <th scope="col">{t('admin.audit.columns.action')}</th>
          <th scope="col">{t('admin.audit.columns.change')}</th>
          <th scope="col">{t('admin.audit.columns.note')}</th>
        </>
      }
    >
      {entries.map((entry) => (
        <tr key={entry.id}>
          <td>
            <time dateTime={entry.at}>{formatDateTime(entry.at, i18n.language)}</time>
          </td>
          <td>
            {entry.actor.via === 'command-line' ? (
              <>
                {t('admin.audit.commandLine')}
                <br />
                <small>{entry.actor.name}</small>
              </>
            ) : (
              <>
                {entry.actor.name}
                <br />
                <small>{entry.actor.email}</small>
              </>
            )}
          </td>
          <td>
            <strong>{t(`admin.audit.actions.${entry.action}`)}</strong>
            <br />
            <small>
              <Subject entry={entry} linkCompany={linkCompany} />
            </small>
          </td>
          <td>
            <Changes entry={entry} />
          </td>
          <td className="audit-table__note">{entry.note || '—'}</td>
        </tr>
      ))}
    </StaffTable>
  );
}
