import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ScreenMeta } from '../screen-meta';
import { useDeviceWrite } from '../use-device-write';
import { OfflineCatalogueCard } from './offline-catalogue-card';
import { discardEntry, editEntryQuantity, retryEntry } from '../../lib/sync/outbox';
import {
  customerOf,
  heldBackBy,
  serverKeepsFailing,
  waitsForFailing,
} from '../../lib/sync/outbox-rules';
import { requestSync } from '../../lib/sync/device';
import { useSendingProblem, useSyncState } from '../../lib/sync/use-sync-state';
import { useOutbox, type OutboxView } from '../../lib/sync/use-device-data';
import type { TFunction } from 'i18next';
import { formatTime, serverProblemText } from '../../lib/i18n';
import '../screens.css';

function describe(entry: OutboxView, t: TFunction): string {
  const p = entry.payload;
  switch (p.kind) {
    case 'cart.add':
      return t('sync.kind.cartAdd', {
        quantity: p.quantity,
        name: entry.productName ?? `#${p.productId}`,
      });
    case 'cart.update':
      return t('sync.kind.cartUpdate', {
        quantity: p.quantity,
        name: entry.productName ?? `#${p.productId}`,
      });
    case 'cart.remove':
      return t('sync.kind.cartRemove', { name: entry.productName ?? `#${p.productId}` });
    case 'cart.clear':
      return t('sync.kind.cartClear');
    case 'checkout':
      return t('sync.kind.checkout', { ref: p.localRef });
    case 'order.cancel':
      return t('sync.kind.orderCancel', { number: p.orderNumber });
    case 'profile.update':
      return t('sync.kind.profileUpdate', { name: `${p.firstName} ${p.lastName}` });
    case 'rep.order':
      return t('sync.kind.repOrder', { ref: p.localRef, count: p.items.length });
    case 'rep.customer':
      return t('sync.kind.repCustomer', { name: p.fields.companyName });
    case 'rep.document':
      return t('sync.kind.repDocument', { name: p.fileName });
    case 'list.put':
      return t('sync.kind.listPut', { list: p.listName });
    case 'list.delete':
      return t('sync.kind.listDelete', { list: p.listName });
    case 'list.item.put':
      return t('sync.kind.listItemPut', {
        quantity: p.quantity,
        name: entry.productName ?? `#${p.productId}`,
        list: p.listName,
      });
    case 'list.item.delete':
      return t('sync.kind.listItemDelete', {
        name: entry.productName ?? `#${p.productId}`,
        list: p.listName,
      });
  }
}

function QuantityEdit({ entry }: { entry: OutboxView }) {
  const { t } = useTranslation();
  const run = useDeviceWrite('sync');
  const current = 'quantity' in entry.payload ? entry.payload.quantity : 1;
  const [value, setValue] = useState(String(current));
  return (
    <form
      className="sync-edit"
      onSubmit={(event) => {
        event.preventDefault();
        void run(editEntryQuantity(entry.id as number, Number(value)));
      }}
    >
      <label htmlFor={`edit-${entry.id}`}>{t('sync.newQuantity')}</label>
      <input
        id={`edit-${entry.id}`}
        type="number"
        min={1}
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
      <button type="submit" className="button button--small">
        {t('sync.saveAndSend')}
      </button>
    </form>
  );
}

/** What a waiting entry waits for: a refused one, or one the server keeps failing to take. */
function HeldBack({ entry, entries }: { entry: OutboxView; entries: readonly OutboxView[] }) {
  const { t } = useTranslation();
  const refused = heldBackBy(entry, entries);
  const failing = refused ? undefined : waitsForFailing(entry, entries);
  const blocker = refused ?? failing;
  if (!blocker) return null;
  return (
    <p className="hint" data-testid="held-back">
      {t(refused ? 'sync.heldBack' : 'sync.heldBackFailing', { change: describe(blocker, t) })}
    </p>
  );
}

/**
 * Gives an entry up. A salon registered at the booth goes with the orders and documents
 * taken for it (they cannot be sent without it): the rep is asked first, told how many.
 */
function DiscardButton({ entry, entries }: { entry: OutboxView; entries: readonly OutboxView[] }) {
  const { t } = useTranslation();
  const run = useDeviceWrite('sync');
  const [asking, setAsking] = useState(false);
  const payload = entry.payload;
  const registration = payload.kind === 'rep.customer' ? payload : undefined;
  const dependents = registration
    ? entries.filter(
        (other) => other.id !== entry.id && customerOf(other.payload) === registration.localId,
      ).length
    : 0;
  const discard = () => void run(discardEntry(entry.id as number));
  return (
    <>
      <button
        type="button"
        className="button button--danger button--small"
        onClick={dependents > 0 ? () => setAsking(true) : discard}
      >
        {t('sync.discard')}
      </button>
      {registration && (
        <ConfirmDialog
          open={asking}
          title={t('sync.discardRegistration.title', { name: registration.fields.companyName })}
          confirmLabel={t('sync.discard')}
          cancelLabel={t('common.cancel')}
          danger
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            discard();
          }}
        >
          <p>{t('sync.discardRegistration.body', { count: dependents })}</p>
        </ConfirmDialog>
      )}
    </>
  );
}

/**
 * A waiting entry the server keeps failing to take: why, whether the server may have made
 * the change already, and Discard.
 */
function KeepsFailing({ entry, entries }: { entry: OutboxView; entries: readonly OutboxView[] }) {
  const { t } = useTranslation();
  const failing = serverKeepsFailing(entry);
  if (!failing) return null;
  return (
    <>
      <p className="form-field__error">
        {t(failing === 'mayBeMade' ? 'sync.keepsFailingMayBeMade' : 'sync.keepsFailing')}
      </p>
      <div className="card__actions">
        <DiscardButton entry={entry} entries={entries} />
      </div>
    </>
  );
}

export function SyncPage() {
  const { t, i18n } = useTranslation();
  const entries = useOutbox();
  const run = useDeviceWrite('sync');
  const sync = useSyncState();
  const problem = useSendingProblem();
  // A failing device is always worth saying; the rest only while something waits.
  const shownProblem = problem === 'storageFailed' || (entries?.length ?? 0) > 0 ? problem : null;
  return (
    <div className="page sync">
      <ScreenMeta title={t('sync.title')} description={t('sync.description')} path="/sync" />
      <h1>{t('sync.title')}</h1>
      <OfflineCatalogueCard />
      <p>{t('sync.intro')}</p>
      {sync.needsSignIn && (
        <p className="notice notice--offline">
          {t('sync.needsSignIn')} <Link to="/login">{t('nav.login')}</Link>
        </p>
      )}
      {shownProblem && (
        <p
          className="notice notice--offline"
          role={shownProblem === 'storageFailed' ? 'alert' : undefined}
        >
          {t(`sync.problem.${shownProblem}`)}
        </p>
      )}
      {entries === undefined ? (
        <p className="notice" role="status" aria-busy="true">
          {t('sync.loading')}
        </p>
      ) : entries.length === 0 ? (
        <p className="notice" role="status">
          {t('sync.allSent')}
        </p>
      ) : (
        <>
          <p role="status">{t('sync.count', { count: entries.length })}</p>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => requestSync({ refresh: true, now: true })}
            disabled={sync.running}
          >
            {sync.running ? t('sync.sending') : t('sync.sendNow')}
          </button>
          <ol className="sync-list">
            {entries.map((entry) => (
              <li
                key={entry.id}
                className={`card sync-entry sync-entry--${entry.state}`}
                data-testid="outbox-entry"
              >
                <div className="sync-entry__head">
                  <strong>{describe(entry, t)}</strong>
                  <span
                    className={`chip chip--${entry.state === 'attention' ? 'rejected' : entry.state === 'sending' ? 'review' : 'pending'}`}
                  >
                    {t(`sync.state.${entry.state}`)}
                  </span>
                </div>
                <p className="hint">
                  {t('sync.queuedAt', { time: formatTime(entry.createdAt, i18n.language) })}
                  {entry.attempts > 0 && ` · ${t('sync.attempts', { count: entry.attempts })}`}
                </p>
                <HeldBack entry={entry} entries={entries} />
                {entry.error && entry.state === 'attention' && (
                  <p className="form-field__error">
                    {serverProblemText(entry.error, i18n.language)}
                  </p>
                )}
                <KeepsFailing entry={entry} entries={entries} />
                {entry.state === 'attention' && (
                  <div className="card__actions">
                    {(entry.kind === 'cart.add' || entry.kind === 'cart.update') && (
                      <QuantityEdit entry={entry} />
                    )}
                    <button
                      type="button"
                      className="button button--ghost button--small"
                      onClick={() => void run(retryEntry(entry.id as number))}
                    >
                      {t('sync.retry')}
                    </button>
                    <DiscardButton entry={entry} entries={entries} />
                  </div>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
