import { useCallback, useEffect, useState } from 'react';
import { classifyFailure, type CallFailure } from '../../lib/api/failure';
import { onReconnect } from '../../lib/sync/connectivity';

export interface StaffData<T> {
  /** The server's last answer for this request, held in memory only; undefined before one. */
  data: T | undefined;
  /** When that answer came. */
  readAt: string | undefined;
  /** A read is under way (the first, or a fresh one while the last answer is shown). */
  loading: boolean;
  /** Why the last read failed, if it did. */
  failure: CallFailure | undefined;
  /** Reads again, keeping what is shown until the answer comes. */
  reload: () => void;
}

/**
 * A staff screen's data, read from the server and nowhere else: another request (`key`)
 * starts from nothing, so that the rows of other filters are never shown as these; the
 * same request read again keeps its last answer until the new one comes. Read again when
 * the server can be reached again.
 */
export function useStaffData<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
): StaffData<T> {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{
    key: string;
    data: T | undefined;
    readAt: string | undefined;
    failure: CallFailure | undefined;
    loading: boolean;
  }>({ key, data: undefined, readAt: undefined, failure: undefined, loading: true });
  useEffect(() => onReconnect(() => setAttempt((n) => n + 1)), []);

  useEffect(() => {
    const controller = new AbortController();
    setState((current) =>
      current.key === key
        ? { ...current, loading: true }
        : { key, data: undefined, readAt: undefined, failure: undefined, loading: true },
    );
    load(controller.signal).then(
      (data) => {
        if (controller.signal.aborted) return;
        setState({
          key,
          data,
          readAt: new Date().toISOString(),
          failure: undefined,
          loading: false,
        });
      },
      async (error: unknown) => {
        if (controller.signal.aborted) return;
        const failure = await classifyFailure(error);
        if (controller.signal.aborted) return;
        setState((current) => ({ ...current, failure, loading: false }));
      },
    );
    return () => controller.abort();
    // `load` reads `key`: a new function for the same key has nothing new to read.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  // Before the effect has run for a new key, the state still holds the last key's answer.
  const current = state.key === key;
  return {
    data: current ? state.data : undefined,
    readAt: current ? state.readAt : undefined,
    loading: current ? state.loading : true,
    failure: current ? state.failure : undefined,
    reload,
  };
}
