import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/modal';
import { frameReader, newSighting, type Sighting } from './barcode-reader';

/** How often a picture of the camera is read: often enough to feel immediate, not more. */
const SCAN_INTERVAL_MS = 150;

/** Why the camera cannot scan. */
type CameraProblem = 'denied' | 'noCamera' | 'unsupported' | 'failed' | 'readerFailed';
type CameraState = 'starting' | 'scanning' | CameraProblem;

/** What a refused getUserMedia means for the rep. */
function cameraProblem(error: unknown): CameraProblem {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'noCamera';
  return 'failed';
}

export interface ScanOutcome {
  kind: 'done' | 'error';
  text: string;
}

export interface BarcodeScannerProps {
  open: boolean;
  /** Each EAN-13 read; a pack held in view counts once. */
  onCode: (ean: string) => void;
  /** What became of the last code read, said in the dialog. */
  outcome: ScanOutcome | null;
  onClose: () => void;
}

/**
 * The camera in a dialog, reading EAN-13 barcodes while it is open; the camera is
 * released as soon as it closes. Without a camera, or when it is refused, it says so: the
 * rep types the code instead.
 */
export function BarcodeScanner({ open, onCode, outcome, onClose }: BarcodeScannerProps) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<CameraState>('starting');
  const codeRead = useRef(onCode);
  useEffect(() => {
    codeRead.current = onCode;
  }, [onCode]);

  useEffect(() => {
    const element = video.current;
    if (!open || !element) return;
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer = 0;
    let last: Sighting | null = null;
    setState('starting');

    const scan = async () => {
      let read;
      try {
        read = await frameReader();
      } catch {
        if (!stopped) setState('readerFailed');
        return;
      }
      if (stopped) return;
      setState('scanning');
      const tick = async () => {
        if (stopped) return;
        const [code] = await read(element).catch(() => []);
        if (stopped) return;
        if (code) {
          const seen = newSighting(last, code, performance.now());
          last = seen.last;
          if (seen.fresh) codeRead.current(code);
        }
        timer = window.setTimeout(() => void tick(), SCAN_INTERVAL_MS);
      };
      await tick();
    };

    const start = async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setState('unsupported');
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' } },
          audio: false,
        });
      } catch (error) {
        if (!stopped) setState(cameraProblem(error));
        return;
      }
      if (stopped) {
        stream.getTracks().forEach((track) => track.stop());
        return;
      }
      element.srcObject = stream;
      await element.play().catch(() => undefined);
      await scan();
    };

    void start();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
      element.srcObject = null;
    };
  }, [open]);

  return (
    <Modal open={open} title={t('fieldSales.scan.title')} onClose={onClose} className="scanner">
      <video
        ref={video}
        className="scanner__video"
        hidden={state !== 'starting' && state !== 'scanning'}
        muted
        playsInline
        aria-label={t('fieldSales.scan.camera')}
      />
      {state === 'starting' || state === 'scanning' ? (
        <p className="scanner__state">
          {t(state === 'starting' ? 'fieldSales.scan.starting' : 'fieldSales.scan.aim')}
        </p>
      ) : (
        <p className="banner banner--error" role="alert">
          {t(`fieldSales.scan.problem.${state}`)}
        </p>
      )}
      <p
        className={`scanner__outcome${outcome?.kind === 'error' ? ' scanner__outcome--error' : ''}`}
        role="status"
      >
        {outcome?.text}
      </p>
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          {t('fieldSales.scan.close')}
        </button>
      </div>
    </Modal>
  );
}
