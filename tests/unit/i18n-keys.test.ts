import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../src/locales/en.json';
import it_ from '../../src/locales/it.json';
import ro from '../../src/locales/ro.json';

type Tree = { [key: string]: string | Tree };

/** Every key path of a locale, plural forms (_one, _few, _many, _other) counted as one. */
function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix + key.replace(/_(zero|one|two|few|many|other)$/, '');
    return typeof value === 'string' ? [path] : keys(value, `${path}.`);
  });
}

function placeholders(tree: Tree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix + key.replace(/_(zero|one|two|few|many|other)$/, '');
    if (typeof value === 'string') {
      // `{{count, number}}` is the placeholder `count` with a format.
      const names = [...value.matchAll(/\{\{(\w+)(?:,[^}]*)?\}\}/g)].map((m) => m[1]).sort();
      found.set(
        path,
        [...new Set([...(found.get(path)?.split(',').filter(Boolean) ?? []), ...names])]
          .sort()
          .join(','),
      );
    } else {
      for (const [k, v] of placeholders(value, `${path}.`)) found.set(k, v);
    }
  }
  return found;
}

const locales = { ro: ro as Tree, en: en as Tree, it: it_ as Tree };

describe('the translations', () => {
  it('have the same keys in ro, en and it', () => {
    const reference = [...new Set(keys(locales.en))].sort();
    for (const tree of Object.values(locales)) {
      expect([...new Set(keys(tree))].sort()).toEqual(reference);
    }
  });

  it('use the same placeholders in every language', () => {
    const reference = placeholders(locales.en);
    for (const tree of Object.values(locales)) {
      expect(placeholders(tree)).toEqual(reference);
    }
  });

  it('have the plural forms each language needs', () => {
    const forms = (lng: string) => new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
    const pluralKeys = (tree: Tree, prefix = ''): string[] =>
      Object.entries(tree).flatMap(([key, value]) =>
        typeof value === 'string'
          ? key.endsWith('_other')
            ? [prefix + key.slice(0, -'_other'.length)]
            : []
          : pluralKeys(value, `${prefix}${key}.`),
      );
    const lookup = (tree: Tree, path: string): unknown =>
      path.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], tree);
    const plurals = pluralKeys(locales.en);
    expect(plurals.length).toBeGreaterThan(0);
    for (const [lng, tree] of Object.entries(locales)) {
      for (const key of plurals) {
        for (const form of forms(lng)) {
          expect(lookup(tree, `${key}_${form}`), `${lng}: ${key}_${form}`).toEqual(
            expect.any(String),
          );
        }
      }
    }
  });

  it('leave no text empty', () => {
    const empty = (tree: Tree): boolean =>
      Object.values(tree).some((v) => (typeof v === 'string' ? v.trim() === '' : empty(v)));
    for (const tree of Object.values(locales)) expect(empty(tree)).toBe(false);
  });
});

/**
 * Codes of refusals the app says in words of its own, not through `serverErrors.<code>`:
 * each with where, or why no user meets it.
 */
const SAID_OTHERWISE: Record<string, string> = {
  BUSY: 'a 503: "The server could not answer…" (lib/api/failure)',
  UPLOADS_BUSY: 'a 503 of uploads: features/register/server-errors',
  TOO_MANY_REGISTRATIONS: 'a 429 with retryAfter: "Too many attempts…" (lib/api/failure)',
  DOCUMENT_DECISION_NOT_ALLOWED: 'admin.documents.conflict (features/admin/company-documents)',
  PICTURE_LIMIT: 'its detail code pictureLimit (features/admin/product-pictures)',
  STAFF_ALREADY_ACTIVE: 'features/admin/people-page',
  STAFF_ALREADY_INACTIVE: 'features/admin/people-page',
  STAFF_LAST_ACTIVE: 'features/admin/people-page',
  STAFF_SELF: 'features/admin/people-page',
  REQUEST_IN_PROGRESS: 'the outbox waits and sends again (lib/sync/outbox-rules)',
  IDEMPOTENCY_KEY_REPEATED: 'the app never sends the header twice',
};

/** Every `code: 'SOME_CODE'` the server's code refuses with. */
function serverCodes(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serverCodes(path);
    if (!entry.name.endsWith('.ts')) return [];
    return [...readFileSync(path, 'utf8').matchAll(/code: '([A-Z][A-Z_]+)'/g)].map((m) => m[1]!);
  });
}

describe('the server’s refusals', () => {
  it('each have a translation, or are said by the app in words of its own', () => {
    const codes = [...new Set(serverCodes(join(import.meta.dirname, '../../server')))].sort();
    expect(codes.length).toBeGreaterThan(20);
    const translated = Object.keys(en.serverErrors);
    expect(codes.filter((code) => !translated.includes(code) && !SAID_OTHERWISE[code])).toEqual([]);
    // An exception that is no longer a code of the server's goes from the list.
    expect(Object.keys(SAID_OTHERWISE).filter((code) => !codes.includes(code))).toEqual([]);
  });
});
