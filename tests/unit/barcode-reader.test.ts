import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareZXingModule as prepareReader } from 'zxing-wasm/reader';
import { prepareZXingModule as prepareWriter, writeBarcode } from 'zxing-wasm/writer';
import { withCheckDigit } from '../../src/contracts/barcodes';
import { newSighting, SAME_PACK_MS } from '../../src/features/field-sales/barcode-reader';
import { eanCodesIn } from '../../src/features/field-sales/zxing-reader';

const require = createRequire(import.meta.url);
/** The .wasm of a part of zxing-wasm, read from the package (no server here to fetch it from). */
const wasm = (part: 'reader' | 'writer') => {
  const bytes = readFileSync(require.resolve(`zxing-wasm/${part}/zxing_${part}.wasm`));
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
};

/**
 * A picture of `text` as the barcode `format`, as a camera would give it: RGBA pixels,
 * each module `scale` pixels wide, on a white margin.
 */
async function picture(text: string, format: 'EAN13' | 'Code128', scale = 3, margin = 40) {
  const { symbol, error } = await writeBarcode(text, { format, addQuietZones: false });
  if (error) throw new Error(error);
  const width = symbol.width * scale + margin * 2;
  const height = Math.max(symbol.height * scale, 60) + margin * 2;
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  for (let y = margin; y < height - margin; y += 1) {
    for (let x = margin; x < width - margin; x += 1) {
      const sx = Math.floor((x - margin) / scale);
      const sy = Math.min(Math.floor((y - margin) / scale), symbol.height - 1);
      const value = symbol.data[sy * symbol.width + sx] ?? 255;
      const at = (y * width + x) * 4;
      data[at] = data[at + 1] = data[at + 2] = value;
    }
  }
  return { data, width, height };
}

describe('eanCodesIn', () => {
  beforeAll(() => {
    prepareReader({ overrides: { wasmBinary: wasm('reader') } });
    prepareWriter({ overrides: { wasmBinary: wasm('writer') } });
  });

  it('reads the EAN-13 printed on a pack', async () => {
    const ean = withCheckDigit('594123400017');
    expect(await eanCodesIn(await picture(ean, 'EAN13'))).toEqual([ean]);
  });

  it('reads nothing from a picture without an EAN-13', async () => {
    expect(await eanCodesIn(await picture('SH-HYD-1000', 'Code128'))).toEqual([]);
    const blank = { data: new Uint8ClampedArray(200 * 100 * 4).fill(255), width: 200, height: 100 };
    expect(await eanCodesIn(blank)).toEqual([]);
  });
});

describe('newSighting', () => {
  it('takes the first code seen, and another code at once', () => {
    const first = newSighting(null, '5941234000017', 0);
    expect(first.fresh).toBe(true);
    expect(newSighting(first.last, '5941234000024', 10).fresh).toBe(true);
  });

  it('takes a pack held in front of the camera once, however long it stays', () => {
    let last = newSighting(null, '5941234000017', 0).last;
    for (let now = 100; now < 10_000; now += 100) {
      const seen = newSighting(last, '5941234000017', now);
      expect(seen.fresh).toBe(false);
      last = seen.last;
    }
  });

  it('takes the same code again once it was out of sight for a while', () => {
    const { last } = newSighting(null, '5941234000017', 0);
    expect(newSighting(last, '5941234000017', SAME_PACK_MS + 1).fresh).toBe(true);
  });
});
