import { useEffect, useId, useRef, type ReactNode, type KeyboardEvent } from 'react';
import './modal.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal built on <dialog>: the rest of the page is inert while it is open, Tab and
 * Shift+Tab cycle inside it, Escape closes it (unless `escapeCloses` is false: what it
 * shows would be lost), and focus returns to what opened it.
 */
export function Modal({
  open,
  title,
  onClose,
  className,
  escapeCloses = true,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  className?: string;
  escapeCloses?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
    }
    if (!open && dialog.open) {
      dialog.close();
      (opener.current as HTMLElement | null)?.focus?.();
    }
  }, [open]);

  const trap = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !ref.current) return;
    const focusable = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={titleId}
      onKeyDown={trap}
      // "none": the browser would close it on a second Escape whatever the page said.
      closedby={escapeCloses ? 'closerequest' : 'none'}
      onCancel={(event) => {
        event.preventDefault();
        if (escapeCloses) onClose();
      }}
    >
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      )}
    </dialog>
  );
}
