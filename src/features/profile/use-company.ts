import { useCallback, useEffect, useState } from 'react';
import type { Company, CompanyDocument } from '../../contracts/accounts';
import { fetchMyCompany, fetchMyDocuments } from '../../lib/api/accounts';
import { isNetworkError } from '../../lib/api/client';

export interface CompanyData {
  company: Company | null;
  documents: CompanyDocument[];
  status: 'loading' | 'ready' | 'offline' | 'failed';
  reload: () => void;
}

/** The signed-in user's company and documents, read from the server. */
export function useCompanyData(): CompanyData {
  const [attempt, setAttempt] = useState(0);
  const [data, setData] = useState<Omit<CompanyData, 'reload'>>({
    company: null,
    documents: [],
    status: 'loading',
  });
  useEffect(() => {
    let live = true;
    Promise.all([fetchMyCompany(), fetchMyDocuments()]).then(
      ([company, documents]) => live && setData({ company, documents, status: 'ready' }),
      (error: unknown) =>
        live &&
        setData((current) => ({
          ...current,
          status: isNetworkError(error) ? 'offline' : 'failed',
        })),
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...data, reload };
}
