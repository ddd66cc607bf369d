import { useCallback, useRef, useState } from 'react';
import { classifyFailure, type CallFailure } from '../../lib/api/failure';

export type ActionResult<T> = { ok: true; value: T } | { ok: false; failure: CallFailure };

/**
 * Runs staff changes one at a time, at once and never queued. Each change is sent under an
 * Idempotency-Key; when its answer did not come (lost, offline, a server fault) the same
 * change sent again keeps the key, so that it is made once even if the first one was.
 * A change is the same when `request` (its address and body) is.
 */
export function useStaffAction() {
  const pending = useRef<{ request: string; key: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async <T>(request: string, send: (key: string) => Promise<T>): Promise<ActionResult<T>> => {
      if (pending.current?.request !== request) {
        pending.current = { request, key: crypto.randomUUID() };
      }
      const { key } = pending.current;
      setBusy(true);
      try {
        const value = await send(key);
        pending.current = null;
        return { ok: true, value };
      } catch (error) {
        const failure = await classifyFailure(error);
        // A refusal was answered and recorded: a new attempt is a new change. A 409 may
        // be the same change still running, which its key must find.
        if (failure.kind === 'refused' && failure.status !== 409) pending.current = null;
        return { ok: false, failure };
      } finally {
        setBusy(false);
      }
    },
    [],
  );
  return { busy, run };
}
