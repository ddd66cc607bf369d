import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../contracts/accounts';
import { validateProfile } from '../../contracts/form-schemas';
import { Banner } from '../../components/banner';
import { FormField } from '../../components/form-field';
import { serverProblemText } from '../../lib/i18n';
import { queueProfileUpdate } from '../../lib/sync/outbox';
import { useOutboxEntries } from '../../lib/sync/use-device-data';
import { ruleMessages, showBrokenRules } from '../../lib/use-form';
import { EmailConfirmation } from './email-confirmation';

export function PersonalCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState({ firstName: user.firstName, lastName: user.lastName });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [banner, setBanner] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const pending = useOutboxEntries().filter((e) => e.kind === 'profile.update');
  const waiting = pending.find((e) => e.state !== 'attention');
  const refused = pending.find((e) => e.state === 'attention');
  const [sawPending, setSawPending] = useState(false);
  useEffect(() => {
    if (waiting) setSawPending(true);
    else if (sawPending && !refused) {
      setSawPending(false);
      setBanner({ kind: 'success', text: t('profile.updated') });
    }
  }, [waiting, refused, sawPending, t]);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = { firstName: values.firstName.trim(), lastName: values.lastName.trim() };
    const found = validateProfile(trimmed);
    showBrokenRules(event.currentTarget, () => setErrors(ruleMessages(t, found)));
    if (found.length > 0) return;
    setBusy(true);
    try {
      // Through the outbox: saved on the device at once, sent when the server is reachable.
      await queueProfileUpdate(user, trimmed.firstName, trimmed.lastName);
      setEditing(false);
      setBanner(null);
    } catch {
      setBanner({ kind: 'error', text: t('profile.updateFailed') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="personal-title">
      <h2 id="personal-title">{t('profile.personal.title')}</h2>
      {banner && <Banner kind={banner.kind}>{banner.text}</Banner>}
      {waiting && waiting.payload.kind === 'profile.update' && (
        <p className="notice" role="status">
          {t('profile.waiting', {
            name: `${waiting.payload.firstName} ${waiting.payload.lastName}`,
          })}
        </p>
      )}
      {refused && (
        <Banner kind="error">
          {t('profile.updateFailed')} {refused.error ? serverProblemText(refused.error) : ''}
        </Banner>
      )}
      {editing ? (
        <form onSubmit={(event) => void save(event)} noValidate>
          <FormField
            label={t('register.fields.firstName')}
            value={values.firstName}
            autoComplete="given-name"
            error={errors.firstName}
            onChange={(event) => {
              setValues((v) => ({ ...v, firstName: event.target.value }));
              setErrors(({ firstName: _cleared, ...rest }) => rest);
            }}
          />
          <FormField
            label={t('register.fields.lastName')}
            value={values.lastName}
            autoComplete="family-name"
            error={errors.lastName}
            onChange={(event) => {
              setValues((v) => ({ ...v, lastName: event.target.value }));
              setErrors(({ lastName: _cleared, ...rest }) => rest);
            }}
          />
          <FormField
            label={t('register.fields.email')}
            value={user.email}
            readOnly
            hint={t('profile.personal.emailReadOnly')}
          />
          <div className="card__actions">
            <button
              type="button"
              className="button button--ghost"
              onClick={() => {
                setValues({ firstName: user.firstName, lastName: user.lastName });
                setErrors({});
                setEditing(false);
              }}
            >
              {t('common.cancel')}
            </button>
            <button type="submit" className="button" disabled={busy}>
              {t('common.save')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <dl className="details">
            <dt>{t('register.fields.firstName')}</dt>
            <dd>{user.firstName}</dd>
            <dt>{t('register.fields.lastName')}</dt>
            <dd>{user.lastName}</dd>
            <dt>{t('register.fields.email')}</dt>
            <dd>{user.email}</dd>
          </dl>
          <EmailConfirmation user={user} />
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              setValues({ firstName: user.firstName, lastName: user.lastName });
              setBanner(null);
              setEditing(true);
            }}
          >
            {t('common.edit')}
          </button>
        </>
      )}
    </section>
  );
}
