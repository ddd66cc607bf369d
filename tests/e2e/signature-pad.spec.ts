/**
 * The signature pad in Chromium, on a page of its own: a Vite dev server started here
 * serves it alone (no route of the app, no build, no portal server), drawn with the mouse.
 */
import type { Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { createServer, type Plugin } from 'vite';
import { MAX_SIGNATURE_BYTES } from '../../src/contracts/field-sales';
import { expect, test as base } from './portal';

const HARNESS_PAGE = '/signature-pad.html';
const HARNESS_MODULE = 'virtual:signature-pad-harness';

/**
 * The page: the pad in English, every value it hands to onChange kept in
 * `window.signatures`. Plain JavaScript (createElement), so that it needs no JSX transform.
 */
function harness(): Plugin {
  const resolved = `\0${HARNESS_MODULE}`;
  return {
    name: 'signature-pad-harness',
    resolveId: (id) => (id === HARNESS_MODULE ? resolved : undefined),
    load: (id) =>
      id === resolved
        ? `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '/src/locales/en.json';
import '/src/styles.css';
import { SignaturePad } from '/src/features/field-sales/signature-pad.tsx';

await i18next.use(initReactI18next).init({
  lng: 'en',
  resources: { en: { translation: en } },
  interpolation: { escapeValue: false },
});
window.signatures = [];
createRoot(document.getElementById('root')).render(
  createElement('form', { style: { maxWidth: '600px', margin: '24px' } },
    createElement(SignaturePad, { onChange: (png) => window.signatures.push(png) })),
);
`
        : undefined,
    configureServer(server) {
      server.middlewares.use(HARNESS_PAGE, (request, response, next) => {
        const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signature</title></head>
<body><div id="root"></div><script type="module" src="/@id/${HARNESS_MODULE}"></script></body></html>`;
        server
          .transformIndexHtml(request.url ?? HARNESS_PAGE, page)
          .then((html) => {
            response.setHeader('content-type', 'text/html');
            response.end(html);
          })
          .catch(next);
      });
    },
  };
}

const test = base.extend<object, { harnessUrl: string }>({
  harnessUrl: [
    async ({ browserName: _browserName }, use, workerInfo) => {
      const cacheDir = mkdtempSync(join(tmpdir(), 'signature-pad-vite-'));
      const server = await createServer({
        configFile: false,
        root: process.cwd(),
        cacheDir,
        logLevel: 'error',
        plugins: [react(), harness()],
        server: {
          host: '127.0.0.1',
          port: 4390 + workerInfo.parallelIndex,
          strictPort: false,
          // Nothing changes while the tests run: no watching of the whole project (a scan
          // that slows the pad's pictures), and no reload of the page should a file change.
          watch: null,
          hmr: false,
        },
        // Prepared at start, so that the first load does not find new dependencies and reload.
        optimizeDeps: {
          entries: [],
          noDiscovery: true,
          include: [
            'react',
            'react/jsx-dev-runtime',
            'react-dom/client',
            'i18next',
            'react-i18next',
          ],
        },
      });
      try {
        await server.listen();
        const url = server.resolvedUrls?.local[0];
        if (!url) throw new Error('The harness server has no address');
        await use(url.replace(/\/$/, ''));
      } finally {
        await server.close();
        rmSync(cacheDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  // The harness, not the portal: no portal server is started for these tests.
  baseURL: async ({ harnessUrl }, use) => use(harnessUrl),
});

// A tablet's screen: two device pixels to a CSS pixel.
test.use({ deviceScaleFactor: 2 });

/** What onChange handed over, last first. */
const signatures = (page: Page) =>
  page.evaluate(() => (window as unknown as { signatures: (string | null)[] }).signatures);

test.describe('the signature pad', () => {
  test('hands over a small PNG of what was drawn with the mouse, and null once cleared', async ({
    page,
  }) => {
    await page.goto(HARNESS_PAGE);
    const pad = page.getByRole('img', { name: 'Customer’s signature' });
    await expect(pad).toBeVisible();
    await expect(pad).toHaveAccessibleDescription(
      /Not signed yet.*cannot be done with the keyboard/,
    );

    // Its pixels follow the screen's: twice its CSS size on this screen.
    const sizes = await pad.evaluate((canvas: HTMLCanvasElement) => ({
      width: canvas.width,
      clientWidth: canvas.clientWidth,
    }));
    expect(sizes.width).toBe(sizes.clientWidth * 2);

    const box = await pad.boundingBox();
    if (!box) throw new Error('The pad is not laid out');
    // Two strokes, as a name and an underline; each in many small moves.
    const strokes: [number, number][][] = [
      Array.from({ length: 40 }, (_, i) => [
        0.15 + (0.5 * i) / 39,
        0.5 + 0.25 * Math.sin((i / 39) * Math.PI * 4),
      ]),
      [
        [0.2, 0.85],
        [0.5, 0.83],
        [0.8, 0.86],
      ],
    ];
    for (const [drawn, stroke] of strokes.entries()) {
      const [first, ...rest] = stroke.map(([x, y]) => [
        box.x + x * box.width,
        box.y + y * box.height,
      ]);
      if (!first) continue;
      await page.mouse.move(first[0] ?? 0, first[1] ?? 0);
      await page.mouse.down();
      for (const [x, y] of rest) await page.mouse.move(x ?? 0, y ?? 0, { steps: 4 });
      await page.mouse.up();
      // One picture per stroke, once made: a stroke ended before the picture of the one
      // before is made replaces it (the pad hands over only the latest).
      await expect.poll(async () => (await signatures(page)).length).toBe(drawn + 1);
    }

    const png = (await signatures(page)).at(-1);
    expect(typeof png).toBe('string');
    const bytes = Buffer.from(png ?? '', 'base64');
    expect(png).not.toMatch(/^data:/);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
    expect(bytes.length).toBeLessThanOrEqual(MAX_SIGNATURE_BYTES);

    // The browser reads it back: at most 600 pixels wide, black ink on transparent.
    const picture = await page.evaluate(async (base64) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('No 2D canvas');
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let ink = 0;
      let clear = 0;
      let notBlack = 0;
      for (let i = 0; i < data.length; i += 4) {
        const alpha = data[i + 3] ?? 0;
        if (alpha === 0) clear += 1;
        else if (alpha > 200) {
          ink += 1;
          if ((data[i] ?? 0) + (data[i + 1] ?? 0) + (data[i + 2] ?? 0) > 60) notBlack += 1;
        }
      }
      return { width: image.naturalWidth, height: image.naturalHeight, ink, clear, notBlack };
    }, png ?? '');
    expect(picture.width).toBeGreaterThan(100);
    expect(picture.width).toBeLessThanOrEqual(600);
    expect(picture.ink).toBeGreaterThan(500);
    expect(picture.clear).toBeGreaterThan(picture.ink);
    expect(picture.notBlack).toBe(0);
    // Cropped to the strokes: about 65 % of the pad's width, with its margin, at most twice.
    expect(picture.width).toBeLessThan(box.width * 0.8 * 2);

    await expect(pad).toHaveAccessibleDescription(/^Signed\./);
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(async () => (await signatures(page)).at(-1)).toBeNull();
    await expect(pad).toHaveAccessibleDescription(/^Not signed yet\./);
  });

  test('ignores a right click', async ({ page }) => {
    await page.goto(HARNESS_PAGE);
    const pad = page.getByRole('img', { name: 'Customer’s signature' });
    const box = await pad.boundingBox();
    if (!box) throw new Error('The pad is not laid out');
    await page.mouse.move(box.x + 50, box.y + 50);
    await page.mouse.down({ button: 'right' });
    await page.mouse.move(box.x + 200, box.y + 80, { steps: 5 });
    await page.mouse.up({ button: 'right' });
    await page.waitForTimeout(200);
    expect(await signatures(page)).toEqual([]);
    await expect(pad).toHaveAccessibleDescription(/^Not signed yet\./);
  });
});
