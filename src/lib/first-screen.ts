/**
 * The first screen as the server rendered it: its language, its address and the data it
 * showed. The page reads it once and takes over the same markup (hydration) instead of
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
