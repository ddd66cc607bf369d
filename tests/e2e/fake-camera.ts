/**
 * A camera for Chromium's fake capture device: a video file (Y4M) whose every picture shows
 * one EAN-13 barcode, black on white, as a pack held up to a tablet would.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, writeBarcode } from 'zxing-wasm/writer';

const WIDTH = 640;
const HEIGHT = 480;
/** Pixels per module (the narrowest bar). */
const SCALE = 4;
const BAR_HEIGHT = 200;

const require = createRequire(import.meta.url);

/** The barcode's pixels, one byte of luminance each, centred on a white picture. */
async function luminance(ean: string): Promise<Uint8Array> {
  const bytes = readFileSync(require.resolve('zxing-wasm/writer/zxing_writer.wasm'));
  prepareZXingModule({
    overrides: {
      wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    },
  });
  const { symbol, error } = await writeBarcode(ean, { format: 'EAN13', addQuietZones: false });
  if (error) throw new Error(error);
  const picture = new Uint8Array(WIDTH * HEIGHT).fill(255);
  const left = Math.floor((WIDTH - symbol.width * SCALE) / 2);
  const top = Math.floor((HEIGHT - BAR_HEIGHT) / 2);
  for (let y = 0; y < BAR_HEIGHT; y += 1) {
    for (let x = 0; x < symbol.width * SCALE; x += 1) {
      picture[(top + y) * WIDTH + left + x] = symbol.data[Math.floor(x / SCALE)] ?? 255;
    }
  }
  return picture;
}

/** Writes the video to `path` (for --use-file-for-fake-video-capture). */
export async function writeBarcodeVideo(path: string, ean: string): Promise<void> {
  const y = await luminance(ean);
  // 4:2:0: a quarter as many colour samples, all grey.
  const colour = new Uint8Array((WIDTH / 2) * (HEIGHT / 2) * 2).fill(128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, colour]);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(path, Buffer.concat([header, frame, frame]));
}
