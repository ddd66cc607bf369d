/**
 * The security headers of every answer, HSTS over HTTPS:
 *
 * - pages and files: Helmet's, with the portal's content security policy, plus a
 *   permissions policy. None depends on the request, so Helmet runs once, at start, and
 *   each answer gets the headers it wrote (as a per-request middleware it rebuilds its
 *   policy every time);
 * - API answers (JSON, never shown as a page): the short set OWASP recommends for a REST
 *   API — nothing may load or frame them, no type sniffing, no other site may read them —
 *   and `private, no-store` as the default cache policy. The one page under /api, the
 *   API's reference at /api/docs, replaces the policy with its own (./api-docs.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * Browser features the portal does not use, refused to every page and anything it embeds.
 * The camera is the portal's own alone: a sales rep scans barcodes with it.
 */
const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(self), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()';

const HELMET_OPTIONS = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      // WebAssembly from the portal's own files: the barcode reader of browsers without one
      // (src/features/field-sales/zxing-reader.ts). Code made from text stays refused.
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      manifestSrc: ["'self'"],
      workerSrc: ["'self'"],
      // A company's document shown in the back office: read with the staff session and shown
      // from memory in a frame (a PDF; pictures are img-src's blob:). Only the page's own
      // blob: addresses can be made, and the server sends only PDF, JPEG or PNG inline.
      frameSrc: ['blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  // CSP frame-ancestors says it for every browser that matters.
  xFrameOptions: false,
  // Only over HTTPS (below): over plain HTTP the header is meaningless or, on localhost, harmful.
  strictTransportSecurity: false,
} as const;

const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers Helmet sets with these options, read by running it once on a stand-in answer. */
function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const answer = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, answer as unknown as ServerResponse, (error) => {
    if (error) throw new Error('Helmet could not set its headers', { cause: error });
    done = true;
  });
  if (!done) throw new Error('Helmet did not finish at once: its headers depend on the request');
  return headers;
}

export const securityHeaders = fp(async (app) => {
  const headers = { ...helmetHeaders(), 'permissions-policy': PERMISSIONS_POLICY };
  const apiHeaders = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
  };
  app.addHook('onRequest', (request, reply, done) => {
    // Answers of the API can carry prices, tokens and personal data: no cache keeps them,
    // so nothing is left to read after signing out. Routes that may be cached say so.
    reply.headers(request.url.startsWith('/api/') ? apiHeaders : headers);
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
});
