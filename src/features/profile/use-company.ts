import { useCallback, useEffect, useState } from 'react';
import type { Company, CompanyDocument } from '../../contracts/accounts';
import { fetchMyDocuments } from '../../lib/api/accounts';
import { classifyFailure } from '../../lib/api/failure';
import { readCompanyFromServer } from '../../lib/sync/company';
import { onReconnect } from '../../lib/sync/connectivity';
import { useStoredCompany } from '../../lib/sync/use-device-data';

export interface CompanyData {
  /**
   * The company as kept on the device, brought up to date from the server when it answers;
   * undefined until the device has answered, null when it holds none.
   */
  company: Company | null | undefined;
  /** When the server last gave the company shown (the device's copy), if ever. */
  syncedAt: string | undefined;
  /** Read from the server only: the device keeps no copy of the documents. */
  documents: CompanyDocument[];
  /**
   * How the last read from the server went: 'offline' when it cannot be reached,
   * 'serverFailed' when it answered with a fault, 'failed' when it refused or the
   * answer was lost. Until 'ready', the company shown is the device's copy.
   */
  status: 'loading' | 'ready' | 'offline' | 'serverFailed' | 'failed';
  reload: () => void;
}

/**
 * The signed-in user's company and documents. The company is shown from the device at
 * once, offline too, and read again from the server (which also refreshes the device's
 * copy); the documents come from the server only.
 */
export function useCompanyData(): CompanyData {
  const stored = useStoredCompany();
  const [attempt, setAttempt] = useState(0);
  const [remote, setRemote] = useState<Pick<CompanyData, 'documents' | 'status'>>({
    documents: [],
    status: 'loading',
  });
  // Back online: read again.
  useEffect(() => onReconnect(() => setAttempt((n) => n + 1)), []);
  useEffect(() => {
    let live = true;
    Promise.all([readCompanyFromServer(), fetchMyDocuments()]).then(
      ([, documents]) => live && setRemote({ documents, status: 'ready' }),
      async (error: unknown) => {
        const failure = await classifyFailure(error);
        if (!live) return;
        setRemote((current) => ({
          ...current,
          status:
            failure.kind === 'offline' || failure.kind === 'serverFailed' ? failure.kind : 'failed',
        }));
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return {
    ...remote,
    company: stored === undefined ? undefined : (stored?.company ?? null),
    syncedAt: stored?.syncedAt,
    reload,
  };
}
