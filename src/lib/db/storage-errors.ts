/**
 * Why the device's storage refused a write, when that is the reason: full, or not there at
 * all (private browsing that keeps nothing, site data blocked). Dexie wraps the browser's
 * error as `inner`.
 */
export function storageRefusal(error: unknown): 'full' | 'unavailable' | undefined {
  const names = [error, (error as { inner?: unknown } | null)?.inner].map((e) =>
    e instanceof Error || e instanceof DOMException ? e.name : '',
  );
  if (names.includes('QuotaExceededError')) return 'full';
  if (
    names.some((name) => ['SecurityError', 'MissingAPIError', 'InvalidStateError'].includes(name))
  )
    return 'unavailable';
  return undefined;
}
