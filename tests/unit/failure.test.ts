import i18next from 'i18next';
import { HTTPError, type NormalizedOptions } from 'ky';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../src/locales/en.json';

// Whether the server can be reached is the connectivity module's to say; faked here.
const connectivity = vi.hoisted((): { state: 'online' | 'offline'; asked: number } => ({
  state: 'online',
  asked: 0,
}));
vi.mock('../../src/lib/sync/connectivity', () => ({
  checkConnectivity: () => {
    connectivity.asked += 1;
    return Promise.resolve(connectivity.state);
  },
}));

const { classifyFailure, failureText } = await import('../../src/lib/api/failure');
const { ResponseError } = await import('../../src/lib/api/errors');

/** The error ky throws for an answer with this status and body. */
const answered = (status: number, body?: unknown) => {
  const response = new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
  return new HTTPError(
    response,
    new Request('http://localhost/api/auth/login'),
    {} as NormalizedOptions,
  );
};

const t = i18next.t.bind(i18next);
const texts = { offline: 'You are offline (this screen).', refused: 'Refused (this screen).' };

beforeAll(async () => {
  await i18next.init({ lng: 'en', resources: { en: { translation: en } } });
});
beforeEach(() => {
  connectivity.state = 'online';
  connectivity.asked = 0;
});

describe('a failed call', () => {
  it('is a server fault on a 5xx, without asking whether the device is online', async () => {
    for (const status of [500, 502, 503, 504]) {
      const failure = await classifyFailure(answered(status, { message: 'Internal detail' }));
      expect(failure).toMatchObject({ kind: 'serverFailed', status });
      expect(failureText(t, failure, texts)).toBe(
        'The server could not answer. Nothing was lost; try again in a moment.',
      );
    }
    expect(connectivity.asked).toBe(0);
  });

  it('keeps the code of the server’s own 503, never its message', async () => {
    const failure = await classifyFailure(
      new ResponseError(
        new Response(JSON.stringify({ message: 'Busy', code: 'UPLOADS_BUSY' }), { status: 503 }),
      ),
    );
    expect(failure).toEqual({ kind: 'serverFailed', status: 503, code: 'UPLOADS_BUSY' });
  });

  it('is offline only when the connectivity module finds the server cannot be reached', async () => {
    const lost = new TypeError('Failed to fetch');
    expect(await classifyFailure(lost)).toEqual({ kind: 'lost' });
    expect(failureText(t, { kind: 'lost' }, texts)).toBe(
      'The connection dropped before the server answered. Please try again.',
    );
    connectivity.state = 'offline';
    expect(await classifyFailure(lost)).toEqual({ kind: 'offline' });
    expect(failureText(t, { kind: 'offline' }, texts)).toBe(texts.offline);
  });

  it('is a refusal on a 4xx, said in the user’s language when its code is known', async () => {
    const coded = await classifyFailure(
      answered(400, { message: 'Your cart is empty', code: 'CART_EMPTY' }),
    );
    expect(failureText(t, coded, texts)).toBe(en.serverErrors.CART_EMPTY);
    const plain = await classifyFailure(answered(409, { message: 'The server’s own words.' }));
    expect(failureText(t, plain, texts)).toBe('The server’s own words.');
    const bare = await classifyFailure(answered(404));
    expect(failureText(t, bare, texts)).toBe(texts.refused);
    const fields = await classifyFailure(
      answered(400, {
        message: 'Please review the highlighted fields and try again.',
        details: [{ field: 'email', code: 'emailInvalid', message: 'Email address is not valid' }],
      }),
    );
    expect(failureText(t, fields, texts)).toBe(en.validation.reviewFields);
  });

  it('fills in the values a known refusal names', async () => {
    const short = await classifyFailure(
      answered(422, {
        message: 'Not in the user’s language',
        code: 'STOCK_SHORT',
        params: { names: 'Shampoo 250 ml, Mask 500 ml' },
        details: [],
      }),
    );
    expect(failureText(t, short, texts)).toBe(
      'Not enough stock for: Shampoo 250 ml, Mask 500 ml. Lower their quantities in the cart and place the order again.',
    );
    const one = await classifyFailure(
      answered(422, {
        message: 'Not in the user’s language',
        code: 'insufficientStock',
        params: { name: 'Shampoo 250 ml', stock: 2, wanted: 3 },
      }),
    );
    expect(failureText(t, one, texts)).toBe(
      'Only 2 of Shampoo 250 ml left in stock (you asked for 3).',
    );
  });

  it('tells how long to wait when the server says so', async () => {
    const failure = await classifyFailure(
      answered(429, { message: 'Too many login attempts.', retryAfter: 90 }),
    );
    expect(failureText(t, failure, texts)).toBe(
      'Too many attempts. Please try again in 2 minutes.',
    );
  });
});
