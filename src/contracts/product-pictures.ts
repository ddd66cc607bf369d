/**
 * Product pictures uploaded by staff: each is kept as square WebP files at the widths the
 * storefront asks for through `srcset`, all named after the picture and their width. A
 * product's `images` lists each picture by its largest file; the storefront and the
 * device's offline copy find the others from that name. Pictures that came with the demo
 * catalogue (SVG, one file each) have no other widths.
 */

/**
 * Widths kept of every uploaded picture: a cart line or thumbnail (96–80 px, twice that on
 * a sharp screen), a catalogue card (about 240–400 px), the product page (up to 600 px,
 * 800 for sharp screens).
 */
export const PICTURE_WIDTHS = [160, 400, 800] as const;
export const LARGEST_PICTURE_WIDTH = 800;

/** An uploaded picture's file: `/uploads/products/pic-<id>-<width>.webp`. */
const UPLOADED = /^(\/uploads\/products\/pic-[0-9a-f]{32})-(\d+)\.webp$/;

/** The file of `path`'s picture at `width`, for an uploaded one; null for any other. */
export function pictureAt(path: string, width: number): string | null {
  const found = UPLOADED.exec(path);
  return found ? `${found[1]}-${width}.webp` : null;
}

/** Every file of a picture: all widths of an uploaded one, else the path alone. */
export function pictureFiles(path: string): string[] {
  return UPLOADED.test(path)
    ? PICTURE_WIDTHS.map((width) => pictureAt(path, width) ?? path)
    : [path];
}

/** `src` and `srcSet` of an `<img>` showing the picture at about `width` CSS pixels. */
export function pictureSources(path: string, width: number): { src: string; srcSet?: string } {
  if (!UPLOADED.test(path)) return { src: path };
  const fitting = PICTURE_WIDTHS.find((w) => w >= width) ?? LARGEST_PICTURE_WIDTH;
  return {
    src: pictureAt(path, fitting) ?? path,
    srcSet: PICTURE_WIDTHS.map((w) => `${pictureAt(path, w) ?? path} ${w}w`).join(', '),
  };
}
