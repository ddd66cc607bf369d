/**
 * Making an order's pro-forma on the device and handing it over (the share sheet, else a
 * download), for a rep's orders and a salon's own alike. Loaded when a pro-forma is asked
 * for: the PDF code it brings (./pro-forma, then pdf-lib, fontkit and the fonts) is never
 * part of a screen's own download.
 */
import i18n from 'i18next';
import type { Language } from '../../contracts/languages';
import { loadLanguageTexts } from '../i18n';
import { getConnectivity } from '../sync/connectivity';
import { readMaker } from '../sync/maker';
import {
  buildProForma,
  proFormaFileName,
  shareOrDownload,
  type ProFormaCustomer,
  type ProFormaOptions,
  type ProFormaOrder,
} from './pro-forma';

/** Why no pro-forma was made: its language's texts or its files are not on the device, or else. */
export type ProFormaProblem = 'languageOffline' | 'offline' | 'failed';

export type ProFormaOutcome = { ok: true; file: string } | { ok: false; problem: ProFormaProblem };

export interface ProFormaRequest {
  order: ProFormaOrder;
  customer: ProFormaCustomer;
  language: Language;
  reference: ProFormaOptions['reference'];
  /** The customer's signature (a PNG in base64), read only once the texts are there. */
  signature?: (() => Promise<string | null>) | undefined;
}

/** Makes the pro-forma of `request` in its language and hands the file over. */
export async function makeProForma(request: ProFormaRequest): Promise<ProFormaOutcome> {
  try {
    await loadLanguageTexts(request.language);
  } catch {
    return { ok: false, problem: 'languageOffline' };
  }
  try {
    const bytes = await buildProForma(request.order, request.customer, request.language, {
      t: i18n.getFixedT(request.language),
      reference: request.reference,
      maker: readMaker(),
      signature: request.signature ? await request.signature() : null,
    });
    const file = proFormaFileName(request.reference);
    await shareOrDownload(bytes, file);
    return { ok: true, file };
  } catch (error) {
    console.error('The pro-forma could not be made', error);
    const offline = getConnectivity() === 'offline' || !navigator.onLine;
    return { ok: false, problem: offline ? 'offline' : 'failed' };
  }
}
