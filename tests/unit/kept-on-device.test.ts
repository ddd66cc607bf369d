// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_VISIT_KEY } from '../../src/contracts/storage-names';

/** The module as a new page load finds it: its memory is the device's storage alone. */
const pageLoad = async () => {
  vi.resetModules();
  const keeping = await import('../../src/lib/kept-on-device');
  const { markFirstScreen } = await import('../../src/lib/when-idle');
  markFirstScreen();
  return keeping;
};

const installed = (standalone: boolean) =>
  vi
    .spyOn(window, 'matchMedia')
    .mockImplementation(
      (query) =>
        ({ matches: standalone && query.includes('standalone'), media: query }) as MediaQueryList,
    );

beforeEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
  installed(false);
});

describe('keeping the app on the device', () => {
  it('does not keep it on a first visit, and keeps it on the next one', async () => {
    const first = await pageLoad();
    expect(first.appKept()).toBe(false);
    expect(localStorage.getItem(FIRST_VISIT_KEY)).not.toBeNull();

    const next = await pageLoad();
    expect(next.appKept()).toBe(true);
  });

  it('keeps it once the visitor stays, and tells those waiting for it', async () => {
    const { appKept, keepApp, whenKept } = await pageLoad();
    let told = false;
    const kept = whenKept().then(() => (told = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(told).toBe(false);

    keepApp();
    await kept;
    expect(appKept()).toBe(true);
  });

  it('keeps it from the first screen when opened installed', async () => {
    installed(true);
    const { appKept } = await pageLoad();
    expect(appKept()).toBe(true);
  });

  it('keeps nothing it cannot remember: without storage each visit is a first one', async () => {
    const refused = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    vi.spyOn(localStorage, 'getItem').mockImplementation(refused);
    vi.spyOn(localStorage, 'setItem').mockImplementation(refused);
    expect((await pageLoad()).appKept()).toBe(false);
    expect((await pageLoad()).appKept()).toBe(false);
  });
});
