import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { like } from './helpers';
import { createTestDatabase, type TestDatabase } from './test-database';

/** The page as Vite builds it: the server fills in the language, head tags and screen. */
const BUILT_PAGE = `<!doctype html>
<html lang="ro">
  <head>
    <meta charset="UTF-8" />
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

/** What React gives for a page: its head tags first, then the screen. */
const RENDERED = { head: '<title>Terms | Portal</title>', body: '<main><h1>Terms</h1></main>' };

let testDb: TestDatabase;
const folders: string[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  await testDb.drop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * A server over a built app of `page` and a rendering module that renders `/` and `/terms`
 * as `rendered` (none when null), with what it logs at error level.
 */
async function serve(page: string, rendered: typeof RENDERED | null = RENDERED) {
  const dir = mkdtempSync(join(tmpdir(), 'portal-first-screens-'));
  folders.push(dir);
  const staticDir = join(dir, 'dist');
  const renderDir = join(dir, 'dist-ssr');
  mkdirSync(staticDir);
  mkdirSync(renderDir);
  writeFileSync(join(staticDir, 'index.html'), page);
  if (rendered) {
    writeFileSync(join(renderDir, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(renderDir, 'entry-server.js'),
      `export const FIRST_SCREEN_ELEMENT_ID = 'first-screen';
export async function renderFirstScreen(url, language) {
  if (url.pathname !== '/' && url.pathname !== '/terms') return null;
  return { status: 200, ...${JSON.stringify(rendered)}, data: { language } };
}`,
    );
  }
  type LogLine = { msg: string; problems?: string[] };
  const errors: LogLine[] = [];
  const app = await buildApp({
    database: testDb.database,
    staticDir,
    renderDir,
    logger: {
      level: 'error',
      stream: { write: (line: string) => errors.push(JSON.parse(line) as LogLine) },
    },
  });
  return { app, errors };
}

describe('server rendering of first screens', () => {
  it('fills the built page with the screen, in the language asked for, and logs nothing', async () => {
    const { app, errors } = await serve(BUILT_PAGE);
    try {
      const response = await app.inject('/terms?lng=en');
      expect(response.statusCode).toBe(200);
      const html = response.body;
      expect(html).toContain('<html lang="en"');
      expect(html).toContain(`${RENDERED.head}</head>`);
      expect(html).toContain(`<div id="root">${RENDERED.body}</div>`);
      expect(html).toContain('<script type="application/json" id="first-screen">');
      expect(html).toContain('<script type="module" fetchpriority="low" crossorigin');
      expect(errors).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('puts text with "$" sequences into the page as it is', async () => {
    // What a search for "$'" renders: React escapes the quote as "&#x27;", making "$&".
    const rendered = {
      head: "<title>$' and $& | Portal</title>",
      body: '<main><input value="$&#x27;"/><p>$` $$ $1</p></main>',
    };
    const { app } = await serve(BUILT_PAGE, rendered);
    try {
      const html = (await app.inject('/terms?lng=en')).body;
      expect(html).toContain(`${rendered.head}</head>`);
      expect(html).toContain(`<div id="root">${rendered.body}</div>`);
      expect(html.match(/<div id="root">/g)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('leaves the screen to the browser where a session is open', async () => {
    const { app } = await serve(BUILT_PAGE);
    try {
      const signedIn = await app.inject({
        url: '/terms?lng=en',
        headers: { cookie: 'portal-language=en; portal-signed-in=1' },
      });
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.body).toBe(BUILT_PAGE);
      expect(signedIn.headers.vary).toMatch(/^cookie, accept-language\b/);
      // Signed out (the cookie emptied), the visitor's screen again.
      const signedOut = await app.inject({
        url: '/terms?lng=en',
        headers: { cookie: 'portal-signed-in=; portal-language=en' },
      });
      expect(signedOut.body).toContain(RENDERED.body);
    } finally {
      await app.close();
    }
  });

  it('says at start that it is off when the built page has no empty root element, and still serves the app', async () => {
    const { app, errors } = await serve(
      BUILT_PAGE.replace('<div id="root"></div>', '<div id="root" class="app"></div>'),
    );
    try {
      expect(errors).toEqual([
        expect.objectContaining({ msg: like.stringMatching(/Server rendering is off/) }),
      ]);
      const response = await app.inject('/terms');
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root" class="app"></div>');
      expect(response.body).not.toContain('first-screen');
    } finally {
      await app.close();
    }
  });

  it.each([
    ['the language', BUILT_PAGE.replace('<html lang="ro">', '<html>'), /<html lang/],
    ['the end of the head', BUILT_PAGE.replace('</head>', ''), /<\/head>/],
    [
      'the scripts as Vite writes them',
      BUILT_PAGE.replace('type="module" crossorigin', 'crossorigin type="module"'),
      /<script type="module" crossorigin/,
    ],
  ])('says at start when the built page has no place for %s', async (_what, page, problem) => {
    const { app, errors } = await serve(page);
    try {
      expect(errors).toHaveLength(1);
      expect(errors[0]?.problems).toEqual([expect.stringMatching(problem)]);
    } finally {
      await app.close();
    }
  });

  it('says at start when the rendering leaves the head tags in the screen', async () => {
    const { app, errors } = await serve(BUILT_PAGE, {
      head: '',
      body: `${RENDERED.head}${RENDERED.body}`,
    });
    try {
      expect(errors).toEqual([
        expect.objectContaining({
          problems: ['no <title> among the head tags', 'a <title> left in the body'],
        }),
      ]);
    } finally {
      await app.close();
    }
  });

  it('says at start that it is off when the rendering module is missing', async () => {
    const { app, errors } = await serve(BUILT_PAGE, null);
    try {
      expect(errors).toEqual([
        expect.objectContaining({ msg: like.stringMatching(/Server rendering is off/) }),
      ]);
      expect((await app.inject('/terms')).body).not.toContain('first-screen');
    } finally {
      await app.close();
    }
  });
});
