import { useLiveQuery } from 'dexie-react-hooks';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Banner } from '../../components/banner';
import { useUser, viewerKey } from '../../lib/auth/session';
import { LANGUAGES } from '../../contracts/languages';
import { formatTime, loadLanguageTexts } from '../../lib/i18n';
import {
  makeCatalogueAvailableOffline,
  StorageFullError,
  useDeviceStorage,
  type DownloadProgress,
} from '../../lib/sync/offline-catalogue';
import { keepScreensNow } from '../../lib/pwa/keep-screens';
import { readCustomers, readCustomersFromServer } from '../../lib/sync/rep-customers';

const megabytes = (bytes: number | null) =>
  bytes === null ? '?' : (bytes / 1024 / 1024).toFixed(1);

/**
 * The catalogue on this device: what is kept, and the button that keeps all of it. For a
 * sales rep it is "Prepare for the fair": its customers too, in the same go.
 */
export function OfflineCatalogueCard() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const viewer = viewerKey(user);
  const rep = user?.role === 'SALES_REP';
  const customers = useLiveQuery(
    async () => (rep ? (await readCustomers(user.id)).length : null),
    [rep, user?.id],
  );
  const [refreshKey, setRefreshKey] = useState(0);
  const storage = useDeviceStorage(refreshKey);
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const [outcome, setOutcome] = useState<'done' | 'cancelled' | 'full' | 'failed' | null>(null);
  /** Pictures the last download could not get from the server. */
  const [missing, setMissing] = useState(0);
  const controller = useRef<AbortController | null>(null);

  const start = async () => {
    controller.current = new AbortController();
    setOutcome(null);
    setProgress({ products: 0, imagesDone: 0, imagesTotal: 0, imagesMissing: 0, bytes: 0 });
    try {
      if (rep) await readCustomersFromServer();
      const [kept] = await Promise.all([
        makeCatalogueAvailableOffline(viewer, controller.current.signal, setProgress),
        user && keepScreensNow(user.role),
        // A rep's pro-formas are made in each customer's language, offline too.
        rep && Promise.all(LANGUAGES.map(loadLanguageTexts)),
      ]);
      setMissing(kept.imagesMissing);
      setOutcome('done');
    } catch (error) {
      setOutcome(
        controller.current.signal.aborted
          ? 'cancelled'
          : error instanceof StorageFullError
            ? 'full'
            : 'failed',
      );
    } finally {
      controller.current = null;
      setProgress(null);
      setRefreshKey((n) => n + 1);
    }
  };

  return (
    <section className="card offline-catalogue" aria-labelledby="offline-catalogue-title">
      <h2 id="offline-catalogue-title">{t(rep ? 'fieldSales.prepare.title' : 'offline.title')}</h2>
      {rep && typeof customers === 'number' && (
        <p data-testid="customers-kept">
          {t('fieldSales.prepare.customers', { count: customers })}
        </p>
      )}
      {storage && (
        <p data-testid="device-storage">
          {/* Only a viewer who sees prices has prices to date, once the copy holds theirs. */}
          {t(
            viewer === 'visitor'
              ? 'offline.summaryUnpriced'
              : storage.pricesOf === viewer
                ? 'offline.summary'
                : 'offline.summaryNoPrices',
            {
              count: storage.products,
              time: storage.syncedAt ? formatTime(storage.syncedAt, i18n.language) : '—',
              used: megabytes(storage.usedBytes),
              quota: megabytes(storage.quotaBytes),
            },
          )}{' '}
          {t('offline.images', { kept: storage.imagesKept, total: storage.imagesTotal })}{' '}
          {storage.persistent === null
            ? ''
            : t(storage.persistent ? 'offline.persistent' : 'offline.notPersistent')}
        </p>
      )}
      {progress ? (
        <div className="offline-catalogue__progress">
          <label htmlFor="offline-progress">
            {t('offline.progress', {
              done: progress.imagesDone,
              total: progress.imagesTotal,
              products: progress.products,
              size: megabytes(progress.bytes),
            })}
          </label>
          <progress
            id="offline-progress"
            max={Math.max(1, progress.imagesTotal)}
            value={progress.imagesDone}
          />
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => controller.current?.abort()}
          >
            {t('common.cancel')}
          </button>
        </div>
      ) : (
        <button type="button" className="button" onClick={() => void start()}>
          {t(rep ? 'fieldSales.prepare.start' : 'offline.start')}
        </button>
      )}
      {outcome === 'done' && missing === 0 && (
        <Banner kind="success">{t(rep ? 'fieldSales.prepare.done' : 'offline.done')}</Banner>
      )}
      {outcome === 'done' && missing > 0 && (
        <Banner kind="info">
          {t(rep ? 'fieldSales.prepare.partial' : 'offline.partial', { count: missing })}
        </Banner>
      )}
      {outcome === 'cancelled' && <Banner kind="info">{t('offline.cancelled')}</Banner>}
      {outcome === 'full' && <Banner kind="error">{t('offline.full')}</Banner>}
      {outcome === 'failed' && <Banner kind="error">{t('offline.failed')}</Banner>}
    </section>
  );
}
