/**
 * The first screen as the server rendered it: its language, its address and the data it
 * showed. The page reads it once and hydrates the same markup instead of
 * building the screen again; later screens fetch their own data.
 */
import { createContext, useContext } from 'react';
import type { Product, ProductPage } from '../contracts/catalogue';
import type { Language } from '../contracts/languages';

export interface FirstScreen {
  language: Language;
  origin: string;
  /** The catalogue page shown, under the key of its query. */
  catalogue?: { key: string; page: ProductPage };
  /** The product shown, or null when there is none with that id. */
  product?: { id: number; product: Product | null };
}

/** The element that carries the first screen's data in the page. */
export const FIRST_SCREEN_ELEMENT_ID = 'first-screen';

const FirstScreenContext = createContext<FirstScreen | null>(null);

export const FirstScreenProvider = FirstScreenContext.Provider;

export const useFirstScreen = (): FirstScreen | null => useContext(FirstScreenContext);

const used = new WeakSet<object>();

/**
 * The server's data for the screen being hydrated, until that screen has used it: a
 * later visit to the same address reads afresh instead of showing what the server saw then.
 */
export function unusedServerData<T extends object>(data: T | undefined): T | undefined {
  return data && !used.has(data) ? data : undefined;
}

/** Called once the screen has used the server's data. */
export function markServerDataUsed(data: object | undefined): void {
  if (data) used.add(data);
}

/** The first screen's data in this page, when the server rendered it. */
export function readFirstScreen(): FirstScreen | null {
  const element = document.getElementById(FIRST_SCREEN_ELEMENT_ID);
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as FirstScreen;
  } catch {
    return null;
  }
}
