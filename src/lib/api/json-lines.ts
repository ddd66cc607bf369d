/**
 * Reads a body of JSON lines (NDJSON) while it arrives: each complete line is parsed and
 * handed on at once, so that a large answer is put to use before its end is received and
 * is never held whole as one string.
 */

export interface ReadJsonLinesOptions {
  /**
   * Longest wait for the next piece of the body; a connection that stalls longer fails
   * with a TimeoutError instead of hanging. Time spent by the caller between lines is not
   * counted.
   */
  idleTimeoutMs?: number;
}

export async function* readJsonLines<T>(
  body: ReadableStream<Uint8Array>,
  { idleTimeoutMs }: ReadJsonLinesOptions = {},
): AsyncGenerator<T> {
  const reader = body.getReader();
  // Streaming mode: a character split between two pieces is decoded once both are in.
  const decoder = new TextDecoder();
  const next = () =>
    idleTimeoutMs === undefined ? reader.read() : within(reader.read(), idleTimeoutMs);
  // The start of a line whose end has not arrived yet, in the pieces it came in.
  let partial: string[] = [];
  try {
    for (;;) {
      const { done, value: bytes } = await next();
      if (done) break;
      const text = decoder.decode(bytes, { stream: true });
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        partial.push(text.slice(start, end));
        const line = partial.join('');
        partial = [];
        start = end + 1;
        if (line.trim() !== '') yield JSON.parse(line) as T;
      }
      if (start < text.length) partial.push(text.slice(start));
    }
    // A last line without its newline; a line cut short fails to parse, as it should.
    const last = partial.join('') + decoder.decode();
    if (last.trim() !== '') yield JSON.parse(last) as T;
  } finally {
    // Stopped early, failed or timed out: let the connection go.
    await reader.cancel().catch(() => undefined);
  }
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DOMException('The answer stalled', 'TimeoutError')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
