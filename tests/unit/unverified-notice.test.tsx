// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UnverifiedNotice } from '../../src/features/cart/unverified-notice';
import en from '../../src/locales/en.json';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});
afterEach(cleanup);

describe('the notice of a company that cannot order yet', () => {
  it('says a company waiting for verification why it sees no prices', () => {
    render(<UnverifiedNotice company={{ isVerified: false, status: 'PENDING' }} />);
    expect(screen.getByRole('note').textContent).toBe(
      'Your company is waiting for verification. ' +
        'Prices, cart and checkout are available only to verified and approved companies.',
    );
  });

  it('says a suspended company that it is suspended', () => {
    render(<UnverifiedNotice company={{ isVerified: true, status: 'SUSPENDED' }} />);
    expect(screen.getByRole('note').textContent).toMatch(/^Your company account is suspended\. /);
  });

  it('says nothing to an approved company', () => {
    const { container } = render(
      <UnverifiedNotice company={{ isVerified: true, status: 'APPROVED' }} />,
    );
    expect(container.innerHTML).toBe('');
  });
});
