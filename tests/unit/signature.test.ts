import { describe, expect, it } from 'vitest';
import { MAX_SIGNATURE_BYTES } from '../../src/contracts/field-sales';
import {
  addPoint,
  CROP_MARGIN,
  cropBox,
  drawStrokes,
  exportScale,
  fitWithinBytes,
  LINE_WIDTH,
  MAX_EXPORT_HEIGHT,
  MAX_EXPORT_SCALE,
  MAX_EXPORT_WIDTH,
  pictureSize,
  strokePath,
  toBase64,
  type PathSink,
  type Point,
} from '../../src/features/field-sales/signature';

/** A stroke through these points, as [x, y] pairs. */
const stroke = (...points: [number, number][]): Point[] => points.map(([x, y]) => ({ x, y }));

/** A sink that writes down what is drawn on it. */
function recorder() {
  const calls: string[] = [];
  const sink: PathSink = {
    lineWidth: 0,
    beginPath: () => calls.push('begin'),
    moveTo: (x, y) => calls.push(`M ${x} ${y}`),
    lineTo: (x, y) => calls.push(`L ${x} ${y}`),
    quadraticCurveTo: (cx, cy, x, y) => calls.push(`Q ${cx} ${cy} ${x} ${y}`),
    arc: (x, y, radius) => calls.push(`dot ${x} ${y} r${radius}`),
    stroke: () => calls.push('stroke'),
    fill: () => calls.push('fill'),
  };
  return { sink, calls };
}

describe('addPoint', () => {
  it('keeps a point only once the pen has moved far enough', () => {
    const points = stroke([10, 10]);
    expect(addPoint(points, { x: 10.5, y: 10.5 })).toBe(false);
    expect(addPoint(points, { x: 13, y: 10 })).toBe(true);
    expect(points).toEqual(stroke([10, 10], [13, 10]));
  });
});

describe('strokePath', () => {
  it('draws nothing for no points and a dot for a tap', () => {
    expect(strokePath([])).toEqual([]);
    expect(strokePath(stroke([4, 5]))).toEqual([{ type: 'dot', x: 4, y: 5 }]);
  });

  it('draws a straight line between two points', () => {
    expect(strokePath(stroke([0, 0], [10, 0]))).toEqual([
      { type: 'move', x: 0, y: 0 },
      { type: 'line', x: 5, y: 0 },
      { type: 'line', x: 10, y: 0 },
    ]);
  });

  it('bends through the middles of the segments, from the first point to the last', () => {
    expect(strokePath(stroke([0, 0], [10, 10], [20, 0], [30, 10]))).toEqual([
      { type: 'move', x: 0, y: 0 },
      { type: 'line', x: 5, y: 5 },
      { type: 'curve', cx: 10, cy: 10, x: 15, y: 5 },
      { type: 'curve', cx: 20, cy: 0, x: 25, y: 5 },
      { type: 'line', x: 30, y: 10 },
    ]);
  });
});

describe('drawStrokes', () => {
  it('draws each stroke as a path, a tap as a filled dot', () => {
    const { sink, calls } = recorder();
    drawStrokes(sink, [stroke([0, 0], [10, 0]), stroke([5, 5])]);
    expect(calls).toEqual([
      'begin',
      'M 0 0',
      'L 5 0',
      'L 10 0',
      'stroke',
      'begin',
      `dot 5 5 r${LINE_WIDTH / 2}`,
      'fill',
    ]);
    expect(sink.lineWidth).toBe(LINE_WIDTH);
  });

  it('draws a cropped copy moved to its corner and scaled, the pen scaled with it', () => {
    const { sink, calls } = recorder();
    drawStrokes(sink, [stroke([20, 30], [40, 30])], { scale: 2, origin: { x: 10, y: 10 } });
    expect(calls).toEqual(['begin', 'M 20 40', 'L 40 40', 'L 60 40', 'stroke']);
    expect(sink.lineWidth).toBe(LINE_WIDTH * 2);
  });

  it('never draws a line thinner than a pixel', () => {
    const { sink } = recorder();
    drawStrokes(sink, [stroke([0, 0], [10, 0])], { scale: 0.1 });
    expect(sink.lineWidth).toBe(1);
  });
});

describe('cropBox', () => {
  it('is null when nothing was drawn', () => {
    expect(cropBox([], 500, 200)).toBeNull();
    expect(cropBox([[]], 500, 200)).toBeNull();
  });

  it('holds every point with the pen’s width and the margin around', () => {
    const around = LINE_WIDTH / 2 + CROP_MARGIN;
    const box = cropBox([stroke([100, 50], [180, 90]), stroke([220, 70])], 500, 200);
    expect(box).toEqual({
      x: Math.floor(100 - around),
      y: Math.floor(50 - around),
      width: Math.ceil(220 + around) - Math.floor(100 - around),
      height: Math.ceil(90 + around) - Math.floor(50 - around),
    });
  });

  it('keeps to the pad: what left it while drawing is not seen, nor sent', () => {
    expect(cropBox([stroke([-40, 100], [600, 300])], 500, 200)).toEqual({
      x: 0,
      y: Math.floor(100 - LINE_WIDTH / 2 - CROP_MARGIN),
      width: 500,
      height: 200 - Math.floor(100 - LINE_WIDTH / 2 - CROP_MARGIN),
    });
    expect(cropBox([stroke([-100, -100], [-60, -80])], 500, 200)).toBeNull();
  });
});

describe('exportScale', () => {
  it('draws a small signature at twice its size, for paper', () => {
    expect(exportScale({ width: 150, height: 60 })).toBe(MAX_EXPORT_SCALE);
  });

  it('scales a wide signature down to the picture’s width', () => {
    const scale = exportScale({ width: 1200, height: 300 });
    expect(scale).toBe(MAX_EXPORT_WIDTH / 1200);
    expect(pictureSize({ width: 1200, height: 300 }, scale)).toEqual({ width: 600, height: 150 });
  });

  it('scales a tall signature down to the picture’s height', () => {
    const scale = exportScale({ width: 400, height: 600 });
    expect(pictureSize({ width: 400, height: 600 }, scale).height).toBe(MAX_EXPORT_HEIGHT);
  });
});

describe('fitWithinBytes', () => {
  /** An encoder whose output grows with the pixels, a byte each, and records the scales. */
  const byPixels = (box: { width: number; height: number }) => {
    const scales: number[] = [];
    const encode = (scale: number) => {
      scales.push(scale);
      const { width, height } = pictureSize(box, scale);
      return Promise.resolve(new Uint8Array(width * height));
    };
    return { encode, scales };
  };

  it('keeps the first picture when it fits', async () => {
    const box = { width: 150, height: 50 };
    const { encode, scales } = byPixels(box);
    const { bytes, scale } = await fitWithinBytes(box, 2, encode);
    expect(scale).toBe(2);
    expect(bytes.length).toBe(300 * 100);
    expect(scales).toEqual([2]);
  });

  it('shrinks the picture until it is within the server’s limit', async () => {
    // 600 × 300 pixels at a byte each: 180,000 bytes, nearly three times the limit.
    const box = { width: 600, height: 300 };
    const { encode, scales } = byPixels(box);
    const { bytes, scale } = await fitWithinBytes(box, 1, encode);
    expect(bytes.length).toBeLessThanOrEqual(MAX_SIGNATURE_BYTES);
    expect(scale).toBeLessThan(1);
    // Aimed at the limit: not more than a second try, and not much smaller than needed.
    expect(scales.length).toBeLessThanOrEqual(3);
    expect(bytes.length).toBeGreaterThan(MAX_SIGNATURE_BYTES * 0.6);
  });

  it('gives up rather than loop when even a pixel is too big', async () => {
    await expect(
      fitWithinBytes({ width: 10, height: 10 }, 1, () =>
        Promise.resolve(new Uint8Array(MAX_SIGNATURE_BYTES + 1)),
      ),
    ).rejects.toThrow(/does not fit/);
  });
});

describe('toBase64', () => {
  it('writes bytes as base64, without a data: prefix', () => {
    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(toBase64(bytes)).toBe('iVBORw0KGgo=');
  });

  it('writes large pictures too', () => {
    const bytes = Uint8Array.from({ length: 200_000 }, (_, i) => i % 251);
    expect(Buffer.from(toBase64(bytes), 'base64').equals(Buffer.from(bytes))).toBe(true);
  });
});
