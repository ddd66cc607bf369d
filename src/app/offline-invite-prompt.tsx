import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConnectivity } from '../lib/sync/connectivity';
import { closeOfflineInvite } from '../lib/sync/offline-invite';
import { useClickBeganBefore } from './prompt-guard';

/**
 * After a verified company signs in: take the whole catalogue along for the fair. Shown
 * by the layout only to a verified company that has not answered the invitation yet, and
 * hidden while offline.
 */
export function OfflineInvitePrompt() {
  const connectivity = useConnectivity();
  const [open, setOpen] = useState(true);
  if (!open || connectivity === 'offline') return null;
  return <Invitation onAnswered={() => setOpen(false)} />;
}

/** The invitation as shown: made anew each time it appears (back online, say). */
function Invitation({ onAnswered }: { onAnswered: () => void }) {
  const { t } = useTranslation();
  const beganBefore = useClickBeganBefore();
  return (
    <div className="update-prompt" role="status">
      <span>{t('offline.invite')}</span>
      <Link
        className="button button--small"
        to="/sync"
        onClick={(event) => {
          if (!beganBefore(event)) onAnswered();
        }}
      >
        {t('offline.start')}
      </Link>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={(event) => {
          if (beganBefore(event)) return;
          closeOfflineInvite();
          onAnswered();
        }}
      >
        {t('offline.notNow')}
      </button>
    </div>
  );
}
