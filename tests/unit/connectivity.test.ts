import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The server as the page reaches it: up answers /api/health, down fails to connect. */
let serverUp = false;
const fetchHealth = vi.fn(() =>
  serverUp
    ? Promise.resolve(
        new Response(JSON.stringify({ status: 'ok' }), {
          headers: { 'content-type': 'application/json' },
        }),
      )
    : Promise.reject(new TypeError('Failed to fetch')),
);
const browser = { onLine: true };

/** The module as a page loads it: its state starts from what the browser says. */
async function loadConnectivity() {
  vi.resetModules();
  return import('../../src/lib/sync/connectivity');
}

beforeEach(() => {
  vi.useFakeTimers();
  serverUp = false;
  browser.onLine = true;
  fetchHealth.mockClear();
  vi.stubGlobal('navigator', browser);
  vi.stubGlobal('fetch', fetchHealth);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('connectivity', () => {
  it('finds the server again within a second of a short drop', async () => {
    const connectivity = await loadConnectivity();
    const reconnected = vi.fn();
    connectivity.onReconnect(reconnected);
    expect(await connectivity.checkConnectivity()).toBe('offline');

    serverUp = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(connectivity.getConnectivity()).toBe('online');
    expect(reconnected).toHaveBeenCalledTimes(1);
  });

  it('looks again while offline, sooner at first, then every 15 s', async () => {
    const connectivity = await loadConnectivity();
    await connectivity.checkConnectivity();
    const looks: number[] = [];
    for (const wait of [1_000, 2_000, 4_000, 8_000, 15_000, 15_000]) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      const before = fetchHealth.mock.calls.length;
      await vi.advanceTimersByTimeAsync(1);
      looks.push(fetchHealth.mock.calls.length - before);
    }
    expect(looks).toEqual([1, 1, 1, 1, 1, 1]);
    expect(connectivity.getConnectivity()).toBe('offline');

    // Once the server is reached, the next drop is looked at soon again.
    serverUp = true;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(connectivity.getConnectivity()).toBe('online');
    serverUp = false;
    await connectivity.checkConnectivity();
    serverUp = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(connectivity.getConnectivity()).toBe('online');
  });

  it('a page opened without a network keeps looking when the network’s return finds no server', async () => {
    browser.onLine = false;
    const connectivity = await loadConnectivity();
    expect(connectivity.getConnectivity()).toBe('offline');
    expect(await connectivity.checkConnectivity()).toBe('offline');

    // The browser has a network again, but the server is not there yet (lie-fi, a portal).
    browser.onLine = true;
    expect(await connectivity.checkConnectivity()).toBe('offline');
    serverUp = true;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(connectivity.getConnectivity()).toBe('online');
  });

  it('reads a page that is not the health answer as offline', async () => {
    const connectivity = await loadConnectivity();
    fetchHealth.mockResolvedValueOnce(
      new Response('<html>Sign in to the hotel Wi-Fi</html>', {
        headers: { 'content-type': 'text/html' },
      }),
    );
    expect(await connectivity.checkConnectivity()).toBe('offline');
  });

  it('reads the server’s own error as reached: a failing server is not offline', async () => {
    const connectivity = await loadConnectivity();
    expect(await connectivity.checkConnectivity()).toBe('offline');
    const reconnected = vi.fn();
    connectivity.onReconnect(reconnected);
    // The database is down: the health check answers the server's JSON error.
    fetchHealth.mockResolvedValueOnce(
      new Response(JSON.stringify({ message: 'Internal Server Error' }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(await connectivity.checkConnectivity()).toBe('online');
    expect(reconnected).toHaveBeenCalledTimes(1);
    // A proxy's error page in its place is not the server.
    fetchHealth.mockResolvedValueOnce(
      new Response('<html>502 Bad Gateway</html>', {
        status: 502,
        headers: { 'content-type': 'text/html' },
      }),
    );
    expect(await connectivity.checkConnectivity()).toBe('offline');
  });

  it('looks at once when the browser says the network is back or gone, not at the next look', async () => {
    const page = new EventTarget();
    vi.stubGlobal('window', page);
    const connectivity = await loadConnectivity();
    connectivity.startConnectivity();
    await vi.advanceTimersByTimeAsync(0);
    // Offline for a while: the next look is 15 s away.
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000 + 8_000);
    expect(connectivity.getConnectivity()).toBe('offline');

    serverUp = true;
    page.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(connectivity.getConnectivity()).toBe('online');

    // The browser's word that the network went is taken without asking.
    const looks = fetchHealth.mock.calls.length;
    page.dispatchEvent(new Event('offline'));
    expect(connectivity.getConnectivity()).toBe('offline');
    expect(fetchHealth.mock.calls.length).toBe(looks);
  });

  it('a slow look that ends after a newer one does not overwrite its answer', async () => {
    const connectivity = await loadConnectivity();
    // The first look hangs (lie-fi) until it times out; the second, started later, finds
    // the server at once.
    fetchHealth.mockImplementationOnce(
      () =>
        new Promise((_, reject) =>
          setTimeout(() => reject(new DOMException('timed out', 'TimeoutError')), 4_000),
        ),
    );
    const slow = connectivity.checkConnectivity();
    serverUp = true;
    expect(await connectivity.checkConnectivity()).toBe('online');

    await vi.advanceTimersByTimeAsync(4_000);
    await slow;
    expect(connectivity.getConnectivity()).toBe('online');
  });

  it('a look that ends after the browser said the network went does not say online', async () => {
    const page = new EventTarget();
    vi.stubGlobal('window', page);
    const connectivity = await loadConnectivity();
    serverUp = true;
    connectivity.startConnectivity();
    await vi.advanceTimersByTimeAsync(0);
    expect(connectivity.getConnectivity()).toBe('online');

    let answer: (response: Response) => void = () => {};
    fetchHealth.mockImplementationOnce(
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    const look = connectivity.checkConnectivity();
    page.dispatchEvent(new Event('offline'));
    answer(
      new Response(JSON.stringify({ status: 'ok' }), {
        headers: { 'content-type': 'application/json' },
      }),
    );
    await look;
    expect(connectivity.getConnectivity()).toBe('offline');
  });

  it('looks started one after the other, each slow, still say what they found', async () => {
    const connectivity = await loadConnectivity();
    serverUp = true;
    expect(await connectivity.checkConnectivity()).toBe('online');
    // Lie-fi: every look hangs until it times out, and a new one starts every 2 s.
    const hang = () =>
      new Promise<Response>((_, reject) =>
        setTimeout(() => reject(new DOMException('timed out', 'TimeoutError')), 4_000),
      );
    fetchHealth.mockImplementationOnce(hang).mockImplementationOnce(hang);
    const first = connectivity.checkConnectivity();
    await vi.advanceTimersByTimeAsync(2_000);
    void connectivity.checkConnectivity();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await first).toBe('offline');
    expect(connectivity.getConnectivity()).toBe('offline');
  });
});
