/**
 * Product pictures uploaded by staff: recognised by their content, never by their name or
 * declared type (JPEG, PNG or WebP by their first bytes, and decoded by sharp to the same
 * format), then made into square WebP files at each width the storefront's `srcset` asks
 * for (src/contracts/product-pictures.ts). The files are kept in the database (table media,
 * served under /uploads/products/ with long cache headers), so that every server process
 * sharing it serves them, as the company documents are kept.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { MAX_PICTURE_BYTES } from '../../src/contracts/admin-catalogue.js';
import { PICTURE_WIDTHS, pictureAt } from '../../src/contracts/product-pictures.js';
import { HttpError } from './errors.js';

/** A stored file of a picture, as table media holds it. */
export interface PictureFile {
  path: string;
  contentType: string;
  data: Buffer;
}

/**
 * The most pixels a picture may decode to (a 7,000 × 7,000 photo): a small file that would
 * unpack into gigabytes (a "decompression bomb") is refused before it is decoded.
 */
const MAX_INPUT_PIXELS = 50_000_000;
/** WebP quality: product photos without visible loss at a third of a JPEG's size. */
const WEBP_QUALITY = 82;
/** The background of a picture that is not square, and of transparent parts. */
const BACKGROUND = '#ffffff';

const SIGNATURES: { format: 'jpeg' | 'png' | 'webp'; test: (data: Buffer) => boolean }[] = [
  { format: 'jpeg', test: (data) => data.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) },
  {
    format: 'png',
    test: (data) =>
      data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  {
    format: 'webp',
    test: (data) =>
      data.subarray(0, 4).toString('latin1') === 'RIFF' &&
      data.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

export const pictureUnsupported = () => {
  const message = 'This file is not a picture we can use. Please upload a JPG, PNG or WebP file.';
  return new HttpError(415, message, [{ field: 'file', code: 'pictureType', message }]);
};

export const pictureTooLarge = () => {
  const message = `This picture is too large. The largest accepted is ${
    MAX_PICTURE_BYTES / 1024 / 1024
  } MB.`;
  return new HttpError(413, message, [{ field: 'file', code: 'pictureSize', message }]);
};

/**
 * Checks a received file and makes its files: the picture's name in a product's `images`
 * (its largest file) and every width. Throws 415 for anything but a JPEG, PNG or WebP that
 * decodes as what its first bytes say, 413 above MAX_PICTURE_BYTES.
 */
export async function makePicture(data: Buffer): Promise<{ image: string; files: PictureFile[] }> {
  if (data.length > MAX_PICTURE_BYTES) throw pictureTooLarge();
  const signature = SIGNATURES.find((candidate) => candidate.test(data));
  if (!signature) throw pictureUnsupported();
  const input = () => sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  try {
    const { format } = await input().metadata();
    if (format !== signature.format) throw pictureUnsupported();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw pictureUnsupported();
  }
  const id = randomUUID().replace(/-/g, '');
  const largest = `/uploads/products/pic-${id}-${Math.max(...PICTURE_WIDTHS)}.webp`;
  try {
    const files = await Promise.all(
      PICTURE_WIDTHS.map(async (width) => ({
        path: pictureAt(largest, width) ?? largest,
        contentType: 'image/webp',
        data: await input()
          // As the camera held it (EXIF orientation), then fitted into the square.
          .rotate()
          .resize(width, width, { fit: 'contain', background: BACKGROUND })
          .flatten({ background: BACKGROUND })
          .webp({ quality: WEBP_QUALITY })
          .toBuffer(),
      })),
    );
    return { image: largest, files };
  } catch {
    // Its header was readable but its pixels are not (a file cut short, a broken stream).
    throw pictureUnsupported();
  }
}
