/**
 * The barcode reader for browsers without a BarcodeDetector that reads EAN-13 (Safari,
 * Firefox, desktop Chromium): ZXing compiled to WebAssembly. It is a chunk of its own,
 * loaded only when such a browser scans, and its .wasm comes from the portal's own
 * address (built as an asset of the app), so that scanning works offline and nothing is
 * fetched from anyone else.
 */
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import { isValidEan13 } from '../../contracts/barcodes';
import type { FrameReader } from './barcode-reader';

const READER_OPTIONS: ReaderOptions = {
  formats: ['EAN13'],
  // A pack held up to a tablet's camera is seldom straight or sharp.
  tryHarder: true,
  maxNumberOfSymbols: 1,
};

/** The one place the module looks for its .wasm: the same function each time, so it loads once. */
const locateFile = (path: string, prefix: string) =>
  path.endsWith('.wasm') ? wasmUrl : prefix + path;

/** The valid EAN-13 codes in a picture (RGBA pixels, as a canvas gives them). */
export async function eanCodesIn(image: Pick<ImageData, 'data' | 'width' | 'height'>) {
  const results = await readBarcodes(image as ImageData, READER_OPTIONS);
  return results
    .filter((result) => result.isValid)
    .map((result) => result.text)
    .filter(isValidEan13);
}

/** A reader of video frames; rejects when the WebAssembly module cannot be loaded. */
export async function zxingFrameReader(): Promise<FrameReader> {
  await prepareZXingModule({ overrides: { locateFile }, fireImmediately: true });
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('No 2D canvas to read the camera’s pictures from');
  return async (video) => {
    const { videoWidth: width, videoHeight: height } = video;
    if (width === 0 || height === 0) return [];
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    context.drawImage(video, 0, 0, width, height);
    return eanCodesIn(context.getImageData(0, 0, width, height));
  };
}
