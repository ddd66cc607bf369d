import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

/** How long a message stays on screen. */
const TOAST_MS = 5000;

type Kind = 'success' | 'error' | 'info';
interface Toast {
  id: number;
  text: string;
  kind: Kind;
}

const ToastContext = createContext<(text: string, kind?: Kind) => void>(() => undefined);

/**
 * Short messages in a live region, instead of alert() boxes
 * (docs/product.md#errors-and-not-found): announced by screen readers, never blocking the page.
 */
export function ToastProvider({
  children,
  dismissLabel,
}: {
  children: ReactNode;
  dismissLabel: string;
}) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const notify = useCallback((text: string, kind: Kind = 'success') => {
    const id = Date.now() + Math.random();
    setToasts((list) => [...list.slice(-2), { id, text, kind }]);
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), TOAST_MS);
  }, []);
  return (
    <ToastContext.Provider value={notify}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast--${toast.kind}`}>
            <span>{toast.text}</span>
            <button
              type="button"
              className="toast__close"
              aria-label={dismissLabel}
              onClick={() => setToasts((list) => list.filter((t) => t.id !== toast.id))}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
