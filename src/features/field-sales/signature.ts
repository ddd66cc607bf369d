/**
 * The geometry of a signature drawn on the pad, kept apart from the canvas so that it can be
 * tested without one: which points a stroke keeps, the smooth path through them, the part
 * of the pad the signature covers, the size of the picture sent, and the guard that keeps
 * that picture within what the server accepts (MAX_SIGNATURE_BYTES).
 */
import { MAX_SIGNATURE_BYTES } from '../../contracts/field-sales';

/** A point of a stroke, in CSS pixels from the pad's top left corner. */
export interface Point {
  x: number;
  y: number;
}

/** The points of one stroke, from the pen touching the pad to it leaving. */
export type Stroke = readonly Point[];

/** A rectangle in CSS pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How a stroke is drawn: a dot for a tap, else a line smoothed through its points. */
export type PathCommand =
  | { type: 'dot'; x: number; y: number }
  | { type: 'move'; x: number; y: number }
  | { type: 'line'; x: number; y: number }
  | { type: 'curve'; cx: number; cy: number; x: number; y: number };

/** What a path is drawn on: a canvas's 2D context has these (and a test can record them). */
export interface PathSink {
  lineWidth: number;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  quadraticCurveTo(cx: number, cy: number, x: number, y: number): void;
  arc(x: number, y: number, radius: number, start: number, end: number): void;
  stroke(): void;
  fill(): void;
}

/** Width of the pen, in CSS pixels: a felt-tip line, readable once scaled down. */
export const LINE_WIDTH = 2.5;

/**
 * A point closer than this to the one before it is dropped: a hand trembles by a pixel or
 * so, and every point kept makes the line wobble and the picture bigger.
 */
export const MIN_POINT_DISTANCE = 1.5;

/** Space kept around the signature when it is cropped, in CSS pixels. */
export const CROP_MARGIN = 8;

/** The picture sent is at most this wide and high, in pixels: ample for a printed page. */
export const MAX_EXPORT_WIDTH = 600;
export const MAX_EXPORT_HEIGHT = 300;

/**
 * A small signature is drawn at up to twice its size on screen (a tablet's pixel ratio),
 * so that it stays sharp on paper.
 */
export const MAX_EXPORT_SCALE = 2;

/** Tries at a smaller size before the size guard gives up (it never needs that many). */
const MAX_SHRINK_TRIES = 12;

/**
 * Adds `point` to `stroke` unless it is too close to the last point kept; whether it was
 * added, so that the pad redraws only when something changed.
 */
export function addPoint(stroke: Point[], point: Point, minDistance = MIN_POINT_DISTANCE): boolean {
  const last = stroke[stroke.length - 1];
  if (last && Math.hypot(point.x - last.x, point.y - last.y) < minDistance) return false;
  stroke.push({ x: point.x, y: point.y });
  return true;
}

const middle = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/**
 * The smooth path through a stroke: quadratic curves from the middle of one segment to the
 * middle of the next, each bent by the point between them, so that the line has no corners
 * where the pointer's samples were. It starts at the first point and ends at the last.
 */
export function strokePath(stroke: Stroke): PathCommand[] {
  const [first, second] = stroke;
  if (!first) return [];
  if (!second) return [{ type: 'dot', x: first.x, y: first.y }];
  const commands: PathCommand[] = [{ type: 'move', x: first.x, y: first.y }];
  const start = middle(first, second);
  commands.push({ type: 'line', x: start.x, y: start.y });
  for (let i = 1; i < stroke.length - 1; i += 1) {
    const bend = stroke[i] as Point;
    const to = middle(bend, stroke[i + 1] as Point);
    commands.push({ type: 'curve', cx: bend.x, cy: bend.y, x: to.x, y: to.y });
  }
  const last = stroke[stroke.length - 1] as Point;
  commands.push({ type: 'line', x: last.x, y: last.y });
  return commands;
}

/** The thinnest line drawn, in pixels: thinner, a scaled-down signature fades on paper. */
const MIN_LINE_WIDTH = 1;

/**
 * Draws the strokes on `sink` with a pen of `lineWidth`, each point moved by `-origin` and
 * multiplied by `scale` (to draw a cropped, smaller copy). The sink's colours, line caps
 * and joins are the caller's to set (round, for a pen).
 */
export function drawStrokes(
  sink: PathSink,
  strokes: readonly Stroke[],
  { scale = 1, origin = { x: 0, y: 0 }, lineWidth = LINE_WIDTH } = {},
): void {
  const x = (value: number) => (value - origin.x) * scale;
  const y = (value: number) => (value - origin.y) * scale;
  const width = Math.max(MIN_LINE_WIDTH, lineWidth * scale);
  sink.lineWidth = width;
  for (const stroke of strokes) {
    const commands = strokePath(stroke);
    sink.beginPath();
    for (const command of commands) {
      switch (command.type) {
        case 'dot':
          sink.arc(x(command.x), y(command.y), width / 2, 0, 2 * Math.PI);
          sink.fill();
          break;
        case 'move':
          sink.moveTo(x(command.x), y(command.y));
          break;
        case 'line':
          sink.lineTo(x(command.x), y(command.y));
          break;
        case 'curve':
          sink.quadraticCurveTo(x(command.cx), y(command.cy), x(command.x), y(command.y));
          break;
      }
    }
    if (commands[0]?.type !== 'dot') sink.stroke();
  }
}

/**
 * The part of the pad the signature covers, with the pen's width and `margin` around it,
 * kept within the pad (`padWidth` × `padHeight`: a stroke may leave the pad while the
 * pointer is captured, and what is not seen is not sent); null when nothing was drawn.
 * A smoothed stroke never leaves the box of its points, so the points alone decide.
 */
export function cropBox(
  strokes: readonly Stroke[],
  padWidth: number,
  padHeight: number,
  { margin = CROP_MARGIN, lineWidth = LINE_WIDTH } = {},
): Box | null {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const stroke of strokes) {
    for (const { x, y } of stroke) {
      left = Math.min(left, x);
      top = Math.min(top, y);
      right = Math.max(right, x);
      bottom = Math.max(bottom, y);
    }
  }
  if (left === Infinity) return null;
  const around = lineWidth / 2 + margin;
  const x = Math.max(0, Math.floor(left - around));
  const y = Math.max(0, Math.floor(top - around));
  const width = Math.min(padWidth, Math.ceil(right + around)) - x;
  const height = Math.min(padHeight, Math.ceil(bottom + around)) - y;
  // Everything drawn lies outside the pad: nothing of it was seen.
  if (width <= 0 || height <= 0) return null;
  return { x, y, width, height };
}

/** The scale the cropped signature is drawn at: within the picture's largest size. */
export function exportScale(
  box: Pick<Box, 'width' | 'height'>,
  { maxWidth = MAX_EXPORT_WIDTH, maxHeight = MAX_EXPORT_HEIGHT, maxScale = MAX_EXPORT_SCALE } = {},
): number {
  return Math.min(maxScale, maxWidth / box.width, maxHeight / box.height);
}

/** The picture's size in whole pixels at `scale`, never below one pixel. */
export function pictureSize(box: Pick<Box, 'width' | 'height'>, scale: number) {
  return {
    width: Math.max(1, Math.round(box.width * scale)),
    height: Math.max(1, Math.round(box.height * scale)),
  };
}

/**
 * The picture of a box at the first scale, from `scale` down, whose encoding (`encode`,
 * a PNG) is at most `maxBytes`. Each try shrinks the side by the square root of how much
 * too big the last one was, with a tenth to spare, so it seldom takes a second try. Once
 * the raw pixels (4 bytes each) fit, any PNG fits, so the loop ends well before its last
 * try; an encoder that overshoots even then gets an error, not an endless loop.
 */
export async function fitWithinBytes(
  box: Pick<Box, 'width' | 'height'>,
  scale: number,
  encode: (scale: number) => Promise<Uint8Array>,
  maxBytes = MAX_SIGNATURE_BYTES,
): Promise<{ bytes: Uint8Array; scale: number }> {
  let current = scale;
  for (let tries = 0; tries < MAX_SHRINK_TRIES; tries += 1) {
    const bytes = await encode(current);
    if (bytes.length <= maxBytes) return { bytes, scale: current };
    const { width, height } = pictureSize(box, current);
    if (width === 1 && height === 1) break;
    current *= Math.min(0.9, 0.9 * Math.sqrt(maxBytes / bytes.length));
  }
  throw new Error(`The signature does not fit in ${maxBytes} bytes`);
}

/** Bytes in base64, without a `data:` prefix (what the order's `signature` takes). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
