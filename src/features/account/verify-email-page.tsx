import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { Banner } from '../../components/banner';
import { ScreenMeta } from '../screen-meta';
import { verifyEmail } from '../../lib/api/account-links';
import { classifyFailure, failureText } from '../../lib/api/failure';
import { getSession } from '../../lib/auth/session-store';
import '../screens.css';

type State =
  | { kind: 'confirming' }
  | { kind: 'confirmed' }
  | { kind: 'failed'; text: string; code: string | undefined };

/**
 * `/account/verify-email?token=…`, opened from the e-mail sent at registration: the
 * address is confirmed as the page opens.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const token = useSearchParams()[0].get('token') ?? '';
  const [state, setState] = useState<State>(
    token
      ? { kind: 'confirming' }
      : { kind: 'failed', text: t('serverErrors.TOKEN_INVALID'), code: 'TOKEN_INVALID' },
  );
  // Once per token, also when the screen renders twice.
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    verifyEmail(token).then(
      async () => {
        setState({ kind: 'confirmed' });
        // A signed-in user's profile stops asking for the confirmation.
        if (getSession()) {
          await import('../../lib/auth/session-actions')
            .then((m) => m.refreshUser())
            .catch(() => undefined);
        }
      },
      async (caught: unknown) => {
        const failure = await classifyFailure(caught);
        setState({
          kind: 'failed',
          text: failureText(t, failure, {
            offline: t('account.offline'),
            refused: t('account.verify.failed'),
          }),
          code: failure.kind === 'refused' ? failure.body?.code : undefined,
        });
      },
    );
  }, [token, t]);

  return (
    <div className="page auth-page">
      <ScreenMeta
        title={t('account.verify.title')}
        description={t('account.verify.description')}
        path="/account/verify-email"
      />
      <meta name="robots" content="noindex" />
      <section className="auth-page__form">
        <h1>{t('account.verify.title')}</h1>
        {state.kind === 'confirming' && (
          <p role="status">
            <span className="spinner" aria-hidden="true" /> {t('account.verify.confirming')}
          </p>
        )}
        {state.kind === 'confirmed' && (
          <Banner kind="success">{t('account.verify.confirmed')}</Banner>
        )}
        {state.kind === 'failed' && <Banner kind="error">{state.text}</Banner>}
        {state.kind === 'failed' && state.code === 'TOKEN_USED' && (
          <p>{t('account.verify.usedHint')}</p>
        )}
        {state.kind === 'failed' && state.code === 'TOKEN_EXPIRED' && (
          <p>{t('account.verify.expiredHint')}</p>
        )}
        {state.kind !== 'confirming' && (
          <p>
            {getSession() ? (
              <Link to="/profile">{t('account.verify.toProfile')}</Link>
            ) : (
              <Link to="/login">{t('account.backToSignIn')}</Link>
            )}
          </p>
        )}
      </section>
    </div>
  );
}
