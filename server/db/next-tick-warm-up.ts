/**
 * Gets `process.nextTick` compiled by V8 before PGlite starts, so that it stays fast.
 *
 * Node's nextTick builds a small object with computed keys on every call, and V8 keeps an
 * inline cache for each of those keys. When the first calls of nextTick in a process come
 * from the streams PGlite uses to read an extension's bundle (a file stream, a gunzip and a
 * pipeline), those caches end up megamorphic for good. Every nextTick afterwards takes V8's
 * slow path: about 250 ns instead of 45 ns here, a handful of times per HTTP request. That
 * cost the embedded-database server about 15% of its requests per second on every route,
 * including routes that never touch the database (`npm run bench`, the catalogue API lines).
 *
 * Calling nextTick some thousands of times first, each call from the last one's callback,
 * gets it optimized with simple caches that the later calls keep. It takes about 15 ms,
 * once per process.
 */
const CALLS = 20_000;

let warmedUp: Promise<void> | null = null;

export function warmUpNextTick(): Promise<void> {
  warmedUp ??= new Promise((resolve) => {
    let calls = 0;
    const next = () => {
      calls += 1;
      if (calls < CALLS) process.nextTick(next);
      else resolve();
    };
    next();
  });
  return warmedUp;
}
