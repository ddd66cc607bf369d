import { useTranslation } from 'react-i18next';
import { applyUpdate, usePwaState } from '../lib/pwa/register-service-worker';
import { useSyncState } from '../lib/sync/use-sync-state';
import { useOutboxSummary } from '../lib/sync/use-device-data';
import { useClickBeganBefore } from './prompt-guard';

/** "A new version is ready": applied only on the user's click, never while changes are being sent. */
export function UpdatePrompt() {
  const { t } = useTranslation();
  const { updateReady } = usePwaState();
  const sync = useSyncState();
  const { sending } = useOutboxSummary();
  const beganBefore = useClickBeganBefore();
  if (!updateReady) return null;
  return (
    <div className="update-prompt" role="status">
      <span>{t('pwa.updateReady')}</span>
      <button
        type="button"
        className="button button--small"
        disabled={sync.running || sending}
        onClick={(event) => {
          if (!beganBefore(event)) void applyUpdate();
        }}
      >
        {t('pwa.reload')}
      </button>
    </div>
  );
}
