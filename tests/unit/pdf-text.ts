/**
 * Reads back what a PDF made with pdf-lib shows: its pages' text, through each font's
 * ToUnicode map (pdf-lib writes glyph numbers, not letters), and its embedded fonts and
 * pictures. Enough for the documents the app makes; not a general PDF reader.
 */
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFStream,
  type PDFObject,
} from 'pdf-lib';

const text = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);

/** A stream's bytes, unpacked. */
function streamBytes(stream: PDFObject | undefined): Uint8Array {
  if (!(stream instanceof PDFRawStream)) throw new Error('Not a stream');
  return decodePDFRawStream(stream).decode();
}

/** Glyph number → text, from a ToUnicode CMap's bfchar and bfrange entries. */
export function toUnicodeMap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const utf16 = (hex: string) =>
    String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((unit) => parseInt(unit, 16)));
  for (const [, body] of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, glyph, unicode] of (body ?? '').matchAll(
      /<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g,
    )) {
      map.set(parseInt(glyph ?? '', 16), utf16(unicode ?? ''));
    }
  }
  for (const [, body] of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, from, to, first] of (body ?? '').matchAll(
      /<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g,
    )) {
      const start = parseInt(from ?? '', 16);
      const base = parseInt(first ?? '', 16);
      for (let glyph = start; glyph <= parseInt(to ?? '', 16); glyph += 1) {
        map.set(glyph, String.fromCharCode(base + glyph - start));
      }
    }
  }
  return map;
}

export interface EmbeddedFont {
  baseFont: string;
  /** The embedded font program (FontFile2). */
  program: Uint8Array;
  toUnicode: Map<number, string>;
}

export interface ReadPdf {
  pageCount: number;
  /** Each page's lines of text, in the order they were drawn. */
  pages: string[][];
  fonts: EmbeddedFont[];
  /** Pictures embedded (image XObjects), with their size in pixels. */
  images: { width: number; height: number }[];
}

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const doc = await PDFDocument.load(bytes);
  const { context } = doc;
  const lookup = (object: PDFObject | undefined) =>
    object instanceof PDFRef ? context.lookup(object) : object;

  const fontsByRef = new Map<string, EmbeddedFont>();
  const fontOf = (ref: PDFObject | undefined): EmbeddedFont => {
    const key = String(ref);
    const known = fontsByRef.get(key);
    if (known) return known;
    const dict = lookup(ref);
    if (!(dict instanceof PDFDict)) throw new Error('Not a font');
    const descendant = lookup(dict.lookup(PDFName.of('DescendantFonts'), PDFArray).get(0));
    if (!(descendant instanceof PDFDict)) throw new Error('No CID font');
    const descriptor = descendant.lookup(PDFName.of('FontDescriptor'), PDFDict);
    const program = lookup(descriptor.get(PDFName.of('FontFile2')));
    const font: EmbeddedFont = {
      baseFont: String(dict.get(PDFName.of('BaseFont'))).replace(/^\//, ''),
      program: streamBytes(program),
      toUnicode: toUnicodeMap(text(streamBytes(lookup(dict.get(PDFName.of('ToUnicode')))))),
    };
    fontsByRef.set(key, font);
    return font;
  };

  const pages = doc.getPages().map((page) => {
    const fonts = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
    const contents = lookup(page.node.get(PDFName.of('Contents')));
    const streams =
      contents instanceof PDFArray ? contents.asArray().map(lookup) : [contents as PDFObject];
    const lines: string[] = [];
    for (const stream of streams) {
      let font: EmbeddedFont | undefined;
      const operators = text(streamBytes(stream));
      for (const [, name, glyphs] of operators.matchAll(
        /\/(\S+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]*)>\s*Tj/g,
      )) {
        if (name) font = fontOf(fonts?.get(PDFName.of(name)));
        else if (glyphs !== undefined && font) {
          const map = font.toUnicode;
          lines.push(
            (glyphs.match(/.{4}/g) ?? [])
              .map((glyph) => map.get(parseInt(glyph, 16)) ?? '\uFFFD')
              .join(''),
          );
        }
      }
    }
    return lines;
  });

  const pictures = context
    .enumerateIndirectObjects()
    .flatMap(([ref, object]) =>
      object instanceof PDFStream && object.dict.get(PDFName.of('Subtype')) === PDFName.of('Image')
        ? [{ ref: String(ref), dict: object.dict }]
        : [],
    );
  // A picture's transparency is an image of its own (its SMask): counted with its picture.
  const masks = new Set(pictures.map(({ dict }) => String(dict.get(PDFName.of('SMask')))));
  const images = pictures
    .filter(({ ref }) => !masks.has(ref))
    .map(({ dict }) => ({
      width: Number(String(dict.get(PDFName.of('Width')))),
      height: Number(String(dict.get(PDFName.of('Height')))),
    }));

  return { pageCount: doc.getPageCount(), pages, fonts: [...fontsByRef.values()], images };
}
