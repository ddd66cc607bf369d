// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Company } from '../../src/contracts/accounts';
import type { BoothDetailsEntry } from '../../src/contracts/admin';

// The company page's "Typed at a booth" and the record's form it fills in, for a staff
// member: where focus goes as entries are dismissed, and what "Apply to the record" keeps
// of what was typed. The back office's calls are faked.
const calls = vi.hoisted(() => ({
  dismissed: [] as number[],
  settledAs: 'dismissed',
}));
vi.mock('../../src/lib/api/admin', () => ({
  dismissBoothDetails: (id: number) => {
    calls.dismissed.push(id);
    return Promise.resolve({ companyId: 1, settledAs: calls.settledAs });
  },
  editCompany: () => Promise.resolve({ company: {} }),
}));
const toasts = vi.hoisted(() => [] as string[]);
vi.mock('../../src/components/toast', () => ({
  useToast: () => (text: string) => toasts.push(text),
}));
vi.mock('../../src/lib/i18n', () => ({ formatDateTime: () => '30 Nov 2026, 09:00' }));

const { CompanyBoothDetails } = await import('../../src/features/admin/company-booth-details');
const { CompanyEditForm } = await import('../../src/features/admin/company-edit-form');
import en from '../../src/locales/en.json';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: en } } });
});
afterEach(() => {
  cleanup();
  calls.dismissed = [];
  calls.settledAs = 'dismissed';
  toasts.length = 0;
});

const entry = (id: number, details: BoothDetailsEntry['details']): BoothDetailsEntry => ({
  id,
  rep: { id: 9, firstName: 'Ilie', lastName: 'Pop' },
  createdAt: '2026-11-30T09:00:00.000Z',
  details,
});

describe('"Typed at a booth" on the company page', () => {
  const section = (entries: BoothDetailsEntry[], onAllGone = () => {}) => (
    <CompanyBoothDetails
      entries={entries}
      offline={false}
      onApply={() => {}}
      onDismissed={() => {}}
      onAllGone={onAllGone}
    />
  );
  const [first, second] = [entry(1, { phone: '+40 721 000 999' }), entry(2, { city: 'Turda' })];

  it('moves focus to the next entry’s Dismiss once one is dismissed, and on when none is left', async () => {
    const onAllGone = vi.fn();
    const { rerender } = render(section([first, second], onAllGone));
    expect(screen.getByText('+40 721 000 999')).toBeTruthy();
    const [dismissFirst] = screen.getAllByRole('button', { name: en.admin.boothDetails.dismiss });
    dismissFirst?.focus();
    fireEvent.click(dismissFirst as HTMLElement);
    await waitFor(() => expect(calls.dismissed).toEqual([1]));
    expect(toasts).toEqual([en.admin.boothDetails.dismissed]);

    // The page read the company again, without it.
    rerender(section([second], onAllGone));
    const dismissSecond = screen.getByRole('button', { name: en.admin.boothDetails.dismiss });
    expect(document.activeElement).toBe(dismissSecond);
    expect(dismissSecond.getAttribute('aria-describedby')).toBeTruthy();
    expect(
      document.getElementById(dismissSecond.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe('Typed by Ilie Pop on 30 Nov 2026, 09:00');

    fireEvent.click(dismissSecond);
    await waitFor(() => expect(calls.dismissed).toEqual([1, 2]));
    rerender(section([], onAllGone));
    expect(screen.queryByRole('region')).toBeNull();
    expect(onAllGone).toHaveBeenCalledOnce();
  });

  it('says an entry a correction applied meanwhile was applied, not dismissed', async () => {
    calls.settledAs = 'applied';
    render(section([first]));
    fireEvent.click(screen.getByRole('button', { name: en.admin.boothDetails.dismiss }));
    await waitFor(() => expect(toasts).toEqual([en.admin.boothDetails.appliedAlready]));
  });
});

describe('the record’s form filled in from a booth', () => {
  const company = {
    id: 1,
    name: 'Salon Orhideea',
    taxNumber: 'RO123',
    registrationNumber: '',
    email: 'contact@orhideea.example',
    phone: '+40 264 111 222',
    website: '',
    address: 'Strada Republicii 7',
    city: 'Cluj-Napoca',
    state: '',
    postalCode: '400015',
    country: 'Romania',
  } as Company;
  const form = (proposed?: BoothDetailsEntry['details']) => (
    <CompanyEditForm
      company={company}
      proposed={proposed}
      offline={false}
      onSaved={() => {}}
      onCancel={() => {}}
    />
  );

  it('fills the details in over what was typed, and keeps the rest of it', () => {
    const { rerender } = render(form());
    fireEvent.change(screen.getByLabelText(en.admin.fields.postalCode), {
      target: { value: '400016' },
    });
    fireEvent.change(screen.getByLabelText(en.admin.fields.phone), {
      target: { value: '0700 000 000' },
    });

    rerender(form({ phone: '+40 721 000 999', city: 'Turda' }));
    const value = (label: string) => screen.getByLabelText<HTMLInputElement>(label).value;
    expect(value(en.admin.fields.postalCode)).toBe('400016');
    expect(value(en.admin.fields.phone)).toBe('+40 721 000 999');
    expect(value(en.admin.fields.city)).toBe('Turda');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: en.admin.edit.title }));
    expect(screen.getByText(en.admin.boothDetails.applying)).toBeTruthy();
  });
});
