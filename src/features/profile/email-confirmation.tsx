import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../contracts/accounts';
import { resendVerification } from '../../lib/api/accounts';
import { classifyFailure, failureText } from '../../lib/api/failure';

/**
 * Under the e-mail of a salon's user who has not confirmed it yet: what to do, and a new
 * link on request (docs/product.md#e-mail-verification).
 */
export function EmailConfirmation({ user }: { user: User }) {
  const { t } = useTranslation();
  const [state, setState] = useState<
    { kind: 'idle' | 'sending' | 'sent' } | { kind: 'failed'; text: string }
  >({ kind: 'idle' });
  // A session kept from before the field existed has no answer yet: said nothing.
  if (user.emailVerified !== false || user.role !== 'USER') return null;

  const send = async () => {
    setState({ kind: 'sending' });
    try {
      await resendVerification();
      setState({ kind: 'sent' });
    } catch (caught) {
      const failure = await classifyFailure(caught);
      setState({
        kind: 'failed',
        text: failureText(t, failure, {
          offline: t('profile.needsNetwork'),
          refused: t('profile.emailConfirmation.failed'),
        }),
      });
    }
  };

  return (
    <div className="notice email-confirmation">
      <p>{t('profile.emailConfirmation.text')}</p>
      {state.kind === 'sent' ? (
        <p role="status">{t('profile.emailConfirmation.sent', { email: user.email })}</p>
      ) : (
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={state.kind === 'sending'}
          onClick={() => void send()}
        >
          {state.kind === 'sending'
            ? t('profile.emailConfirmation.sending')
            : t('profile.emailConfirmation.resend')}
        </button>
      )}
      {state.kind === 'failed' && (
        <p role="alert" className="form-field__error">
          {state.text}
        </p>
      )}
    </div>
  );
}
