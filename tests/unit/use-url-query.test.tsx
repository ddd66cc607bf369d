// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { useUrlQuery } from '../../src/lib/use-url-query';

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

const inRouter = ({ children }: { children: ReactNode }) => (
  <BrowserRouter>{children}</BrowserRouter>
);

const setting = (name: string, value: string) => (current: URLSearchParams) => {
  current.set(name, value);
  return current;
};

describe("the address's query", () => {
  it('keeps two changes made before the page renders again, as two filters chosen quickly', () => {
    window.history.replaceState(null, '', '/products?search=tea');
    const { result } = renderHook(() => useUrlQuery(), { wrapper: inRouter });
    const [, change] = result.current;

    act(() => {
      change(setting('category', '6'));
      change(setting('sort', 'newest'));
    });

    expect(window.location.search).toBe('?search=tea&category=6&sort=newest');
    expect(result.current[0].toString()).toBe('search=tea&category=6&sort=newest');
  });

  it('replaces the history entry when asked, as the search typed does', () => {
    window.history.replaceState(null, '', '/products');
    const { result } = renderHook(() => useUrlQuery(), { wrapper: inRouter });
    const entries = window.history.length;

    act(() => result.current[1](setting('search', 'mask'), { replace: true }));

    expect(window.location.search).toBe('?search=mask');
    expect(window.history.length).toBe(entries);
  });
});
