/**
 * What a rep's order lists ask the server (a customer's orders, the orders of the day),
 * read online only and again whenever the connection comes back or the device has sent
 * an order meanwhile.
 */
import { useEffect, useState } from 'react';
import { isNetworkError } from '../../lib/api/errors';
import type { StoredOrder } from '../../lib/db/db';
import { useConnectivity } from '../../lib/sync/connectivity';

export type ServerRead<T> =
  { state: 'reading' | 'offline' | 'failed'; value?: undefined } | { state: 'done'; value: T };

const READING = { state: 'reading' } as const;

/**
 * `read(key)` as the server answers it; `again` changing reads it again. While it is read
 * again, the last answer for the same key stays on screen; an answer for another key (the
 * customer chosen before, yesterday) is never one for this key. A null key reads nothing.
 * `read` is one function for the page's life (declared outside the component).
 */
export function useServerRead<T>(
  key: number | null,
  read: (key: number, signal: AbortSignal) => Promise<T>,
  again: string,
): ServerRead<T> {
  const connectivity = useConnectivity();
  const [answer, setAnswer] = useState<{ key: number | null; read: ServerRead<T> }>({
    key,
    read: READING,
  });

  useEffect(() => {
    if (key === null) return;
    if (connectivity === 'offline') {
      setAnswer({ key, read: { state: 'offline' } });
      return;
    }
    const abort = new AbortController();
    setAnswer((previous) =>
      previous.key === key && previous.read.state === 'done' ? previous : { key, read: READING },
    );
    read(key, abort.signal).then(
      (value) => setAnswer({ key, read: { state: 'done', value } }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        setAnswer({ key, read: { state: isNetworkError(error) ? 'offline' : 'failed' } });
      },
    );
    return () => abort.abort();
  }, [key, read, connectivity, again]);

  return answer.key === key ? answer.read : READING;
}

/** Changes whenever the device has sent one more of `orders`: the server has news then. */
export const sentOrders = (orders: readonly StoredOrder[] | undefined): string =>
  (orders ?? [])
    .filter((stored) => stored.state === 'synced')
    .map((stored) => stored.ref)
    .join();
