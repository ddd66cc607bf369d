import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

/** How long a message stays on screen. */
const TOAST_MS = 5000;

type Kind = 'success' | 'error' | 'info';
interface Toast {
  /** Its topic, else a number of its own. */
  id: number | string;
  text: string;
  kind: Kind;
}

/**
 * Shows `text`; a message of the same `topic` takes the place of the one shown before it
 * ("Sending your order…", then "Order … created successfully!").
 */
type Notify = (text: string, kind?: Kind, topic?: string) => void;

const ToastContext = createContext<Notify>(() => undefined);

let lastId = 0;

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
  const notify = useCallback<Notify>((text, kind = 'success', topic) => {
    const toast = { id: topic ?? ++lastId, text, kind };
    setToasts((list) => [...list.filter((t) => t.id !== toast.id).slice(-2), toast]);
    setTimeout(() => setToasts((list) => list.filter((t) => t !== toast)), TOAST_MS);
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
