import type { ReactNode } from 'react';

/** A message above a form or a page: errors are alerts, the rest polite status updates. */
export function Banner({
  kind,
  children,
}: {
  kind: 'error' | 'success' | 'info';
  children: ReactNode;
}) {
  return (
    <div className={`banner banner--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
