import { describe, expect, it } from 'vitest';
import { readJsonLines } from '../../src/lib/api/json-lines';

/** A body that arrives in the given pieces of bytes, as a network would cut it. */
function bodyOf(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

/** The text's bytes cut every `size` bytes (splitting lines and characters alike). */
function cut(text: string, size: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.slice(i, i + size));
  return pieces;
}

async function all<T>(lines: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of lines) values.push(value);
  return values;
}

const VALUES = [
  { type: 'categories', names: ['Șampoane', 'Balsamuri'] },
  { type: 'products', products: [{ id: 1, name: 'Mască cu ulei de argan 🌿' }] },
  { type: 'end', ids: [1] },
];
const NDJSON = VALUES.map((value) => `${JSON.stringify(value)}\n`).join('');

describe('reading JSON lines', () => {
  it.each([1, 2, 3, 7, 64, 10_000])(
    'gives every value once, whatever pieces the body arrives in (%i bytes)',
    async (size) => {
      expect(await all(readJsonLines(bodyOf(cut(NDJSON, size))))).toEqual(VALUES);
    },
  );

  it('reads a last line without its newline, and skips blank lines', async () => {
    const text = `\n${JSON.stringify(VALUES[0])}\n\n${JSON.stringify(VALUES[1])}`;
    expect(await all(readJsonLines(bodyOf(cut(text, 5))))).toEqual(VALUES.slice(0, 2));
  });

  it('fails on a line cut short instead of giving part of it', async () => {
    const text = NDJSON.slice(0, NDJSON.length - 10);
    await expect(all(readJsonLines(bodyOf(cut(text, 16))))).rejects.toBeInstanceOf(SyntaxError);
  });

  it('hands on each line as soon as it is complete, before the body ends', async () => {
    let release: () => void = () => undefined;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(`${JSON.stringify(VALUES[0])}\n`));
        await new Promise<void>((resolve) => (release = resolve));
        controller.close();
      },
    });
    const lines = readJsonLines(body);
    expect((await lines.next()).value).toEqual(VALUES[0]);
    release();
    expect((await lines.next()).done).toBe(true);
  });

  it('fails with a TimeoutError when the body stalls, and lets the connection go', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`${JSON.stringify(VALUES[0])}\n{"type":`));
      },
      cancel() {
        cancelled = true;
      },
    });
    const lines = readJsonLines(body, { idleTimeoutMs: 20 });
    expect((await lines.next()).value).toEqual(VALUES[0]);
    await expect(lines.next()).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(cancelled).toBe(true);
  });

  it('lets the connection go when the reader stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(NDJSON));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const value of readJsonLines(body)) {
      expect(value).toEqual(VALUES[0]);
      break;
    }
    expect(cancelled).toBe(true);
  });
});
