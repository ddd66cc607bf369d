/**
 * Reading EAN-13 barcodes from the camera's pictures: with the browser's own
 * BarcodeDetector where it reads EAN-13 (Chrome on Android and ChromeOS, Safari on macOS),
 * otherwise with ZXing (./zxing-reader), loaded only then.
 */
import { isValidEan13 } from '../../contracts/barcodes';

/** The EAN-13 codes seen in the video's current picture. */
export type FrameReader = (video: HTMLVideoElement) => Promise<string[]>;

/** The part of the Barcode Detection API used here (not in TypeScript's DOM types yet). */
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): {
    detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
  };
  getSupportedFormats(): Promise<string[]>;
}

async function nativeReader(): Promise<FrameReader | null> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  // Some browsers have the API but no reader of EAN-13 behind it.
  const formats = await Detector.getSupportedFormats().catch((): string[] => []);
  if (!formats.includes('ean_13')) return null;
  const detector = new Detector({ formats: ['ean_13'] });
  return async (video) => {
    if (video.videoWidth === 0) return [];
    const found = await detector.detect(video);
    return found.map((barcode) => barcode.rawValue).filter(isValidEan13);
  };
}

/** The best reader this browser has; rejects when none can be loaded. */
export async function frameReader(): Promise<FrameReader> {
  const native = await nativeReader();
  if (native) return native;
  const { zxingFrameReader } = await import('./zxing-reader');
  return zxingFrameReader();
}

/**
 * A code seen again within this time of its last sighting is the same pack still in front
 * of the camera, not another one: long enough to bridge pictures where the code is missed.
 */
export const SAME_PACK_MS = 1500;

export interface Sighting {
  code: string;
  /** When it was last seen (milliseconds, any clock that only goes forward). */
  at: number;
}

/**
 * Whether `code`, seen at `now`, is a new scan — another code, or the same one after it
 * was out of sight for SAME_PACK_MS — and the sighting to remember.
 */
export function newSighting(
  last: Sighting | null,
  code: string,
  now: number,
): { fresh: boolean; last: Sighting } {
  const fresh = last === null || last.code !== code || now - last.at > SAME_PACK_MS;
  return { fresh, last: { code, at: now } };
}
