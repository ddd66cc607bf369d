import { useCallback, useEffect, useId, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addPoint,
  cropBox,
  drawStrokes,
  exportScale,
  fitWithinBytes,
  pictureSize,
  toBase64,
  type Box,
  type Point,
  type Stroke,
} from './signature';
import './signature-pad.css';

export interface SignaturePadProps {
  /**
   * Called after each stroke with the signature as a PNG in base64 (no `data:` prefix), at
   * most MAX_SIGNATURE_BYTES; null once cleared. Whether a signature is needed is the
   * form's to decide: someone who cannot use a pointer cannot sign here.
   */
  onChange: (png: string | null) => void;
  /**
   * Called as a stroke ends, with a promise that settles once the stroke's picture has
   * been handed to onChange (or could not be made): a form sent meanwhile waits for it, so
   * that the signature the customer has just made goes with the order.
   */
  onPictureStarted?: (handedOver: Promise<void>) => void;
  disabled?: boolean;
}

/** The cropped signature drawn black on a transparent picture of `scale`, as a PNG. */
function renderPng(strokes: readonly Stroke[], box: Box, scale: number) {
  const { width, height } = pictureSize(box, scale);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('No 2D canvas to draw the signature on');
  context.strokeStyle = context.fillStyle = '#000';
  context.lineCap = context.lineJoin = 'round';
  drawStrokes(context, strokes, { scale, origin: box });
  // Encoded at once: Chromium makes toBlob's PNG when the page is idle, seconds later on a
  // busy tablet, and the order waits for the picture. A signature is a small picture.
  const base64 = canvas.toDataURL('image/png').split(',')[1];
  if (!base64) throw new Error('The signature could not be encoded');
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/** The signature as the order sends it; null when nothing visible was drawn. */
async function signaturePng(strokes: readonly Stroke[], padWidth: number, padHeight: number) {
  const box = cropBox(strokes, padWidth, padHeight);
  if (!box) return null;
  const { bytes } = await fitWithinBytes(box, exportScale(box), (scale) =>
    Promise.resolve(renderPng(strokes, box, scale)),
  );
  return toBase64(bytes);
}

/** Where the pointer is, in CSS pixels from the canvas's top left corner. */
function pointIn(canvas: HTMLCanvasElement, event: { clientX: number; clientY: number }): Point {
  const rect = canvas.getBoundingClientRect();
  return { x: event.clientX - rect.left, y: event.clientY - rect.top };
}

/**
 * The customer signs with a finger, a pen or a mouse. Signing needs a pointer: the hint
 * says so, and nothing here stops a form from being sent without a signature.
 */
export function SignaturePad({ onChange, onPictureStarted, disabled = false }: SignaturePadProps) {
  const { t } = useTranslation();
  const id = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const strokes = useRef<Point[][]>([]);
  /** The pointer drawing now: one at a time, so that a palm resting on the pad draws nothing. */
  const drawing = useRef<number | null>(null);
  /** The pad's size in CSS pixels, as last laid out. */
  const size = useRef({ width: 0, height: 0 });
  const frame = useRef(0);
  /** Counts exports, so that a slow one never overrides a later stroke or a clear. */
  const exports = useRef(0);
  const changed = useRef(onChange);
  const started = useRef(onPictureStarted);
  const [empty, setEmpty] = useState(true);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    changed.current = onChange;
    started.current = onPictureStarted;
  }, [onChange, onPictureStarted]);

  const redraw = useCallback(() => {
    frame.current = 0;
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const ratio = window.devicePixelRatio || 1;
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, canvas.width, canvas.height);
    // Strokes are kept in CSS pixels: the pixel ratio maps them onto the canvas's pixels.
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.strokeStyle = context.fillStyle = getComputedStyle(canvas).color;
    context.lineCap = context.lineJoin = 'round';
    drawStrokes(context, strokes.current);
  }, []);

  const scheduleRedraw = useCallback(() => {
    if (!frame.current) frame.current = requestAnimationFrame(redraw);
  }, [redraw]);

  // The canvas has as many pixels as the screen shows for it, also after a rotation or zoom.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const fit = () => {
      const ratio = window.devicePixelRatio || 1;
      size.current = { width: canvas.clientWidth, height: canvas.clientHeight };
      canvas.width = Math.round(canvas.clientWidth * ratio);
      canvas.height = Math.round(canvas.clientHeight * ratio);
      redraw();
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(canvas);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame.current);
      frame.current = 0;
    };
  }, [redraw]);

  const publish = useCallback(() => {
    const run = (exports.current += 1);
    const { width, height } = size.current;
    const handedOver = signaturePng(strokes.current, width, height).then(
      (png) => {
        if (run !== exports.current) return;
        setFailed(false);
        changed.current(png);
      },
      () => {
        if (run !== exports.current) return;
        setFailed(true);
        changed.current(null);
      },
    );
    started.current?.(handedOver);
  }, []);

  const down = (event: PointerEvent<HTMLCanvasElement>) => {
    if (disabled || drawing.current !== null) return;
    // The main button of a mouse; a pen's barrel button or a right click draws nothing.
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.preventDefault();
    const canvas = event.currentTarget;
    canvas.setPointerCapture(event.pointerId);
    drawing.current = event.pointerId;
    strokes.current.push([pointIn(canvas, event)]);
    setEmpty(false);
    scheduleRedraw();
  };

  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    if (event.pointerId !== drawing.current) return;
    const stroke = strokes.current[strokes.current.length - 1];
    if (!stroke) return;
    const canvas = event.currentTarget;
    // The samples the browser merged into this event: a fast stroke keeps its curve.
    const native = event.nativeEvent;
    const samples =
      typeof native.getCoalescedEvents === 'function' ? native.getCoalescedEvents() : [];
    let added = false;
    for (const sample of samples.length > 0 ? samples : [native]) {
      added = addPoint(stroke, pointIn(canvas, sample)) || added;
    }
    if (added) scheduleRedraw();
  };

  const up = (event: PointerEvent<HTMLCanvasElement>) => {
    if (event.pointerId !== drawing.current) return;
    drawing.current = null;
    scheduleRedraw();
    publish();
  };

  const clear = () => {
    strokes.current = [];
    drawing.current = null;
    exports.current += 1;
    setEmpty(true);
    setFailed(false);
    scheduleRedraw();
    changed.current(null);
  };

  const hintId = `${id}-hint`;
  const stateId = `${id}-state`;
  return (
    <fieldset className={`signature-pad${disabled ? ' signature-pad--disabled' : ''}`}>
      <legend className="signature-pad__label">{t('fieldSales.signature.label')}</legend>
      <p id={hintId} className="signature-pad__hint">
        {t('fieldSales.signature.hint')}
      </p>
      <canvas
        ref={canvasRef}
        className="signature-pad__canvas"
        role="img"
        aria-label={t('fieldSales.signature.label')}
        aria-describedby={`${stateId} ${hintId}`}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
        onLostPointerCapture={up}
      />
      <div className="signature-pad__actions">
        <p id={stateId} className="signature-pad__state" aria-live="polite">
          {failed
            ? t('fieldSales.signature.failed')
            : empty
              ? t('fieldSales.signature.empty')
              : t('fieldSales.signature.signed')}
        </p>
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={clear}
          disabled={disabled}
        >
          {t('fieldSales.signature.clear')}
        </button>
      </div>
    </fieldset>
  );
}
