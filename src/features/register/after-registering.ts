import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * Once registered (`done`), the sign-in page follows after `afterMs`, with its notice of
 * the registration; leaving the page sooner cancels it.
 */
export function useSignInAfterRegistering(
  done: boolean,
  notice: 'registered' | 'companyRegistered',
  afterMs: number,
): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => void navigate('/login', { state: { notice } }), afterMs);
    return () => clearTimeout(timer);
  }, [done, notice, afterMs, navigate]);
}
