import { describe, expect, it } from 'vitest';
import {
  applyOrdersChange,
  ordersQuery,
  readOrdersUrl,
  writeOrdersUrl,
} from '../../src/features/admin/order-urls';

const params = (query: string) => new URLSearchParams(query);

describe('the orders list in the address', () => {
  it('reads an empty address as every order, newest first, page 1', () => {
    expect(readOrdersUrl(params(''))).toEqual({
      search: '',
      status: undefined,
      paymentStatus: undefined,
      companyId: undefined,
      salesRepId: undefined,
      from: '',
      to: '',
      sortBy: 'createdAt',
      sortOrder: 'desc',
      page: 1,
    });
    expect(writeOrdersUrl(readOrdersUrl(params('')))).toBe('/admin/orders');
  });

  it('keeps every filter, the sort and the page it was given', () => {
    const address =
      '/admin/orders?search=FP-2026&status=SHIPPED&paymentStatus=PAID&companyId=12' +
      '&salesRepId=5&from=2026-03-01&to=2026-03-31&sortBy=total&sortOrder=asc&page=3';
    const view = readOrdersUrl(params(address.split('?')[1] ?? ''));
    expect(view).toEqual({
      search: 'FP-2026',
      status: 'SHIPPED',
      paymentStatus: 'PAID',
      companyId: 12,
      salesRepId: 5,
      from: '2026-03-01',
      to: '2026-03-31',
      sortBy: 'total',
      sortOrder: 'asc',
      page: 3,
    });
    expect(writeOrdersUrl(view)).toBe(address);
  });

  it('leaves out what the server would refuse', () => {
    expect(
      readOrdersUrl(
        params(
          'status=LOST&paymentStatus=MAYBE&companyId=0&salesRepId=rep&from=2026-02-30' +
            '&to=31.03.2026' +
            '&sortBy=company&sortOrder=up&page=-1',
        ),
      ),
    ).toMatchObject({
      status: undefined,
      paymentStatus: undefined,
      companyId: undefined,
      salesRepId: undefined,
      from: '',
      to: '',
      sortBy: 'createdAt',
      sortOrder: 'desc',
      page: 1,
    });
  });

  it('sorts a newly chosen column its own way: totals highest first, numbers in order', () => {
    expect(readOrdersUrl(params('sortBy=total'))).toMatchObject({ sortOrder: 'desc' });
    expect(readOrdersUrl(params('sortBy=orderNumber'))).toMatchObject({ sortOrder: 'asc' });
  });

  it('goes back to page 1 on any change but the page, and keeps the company', () => {
    const current = params('companyId=7&page=4');
    expect(applyOrdersChange(current, { status: 'PENDING' }).toString()).toBe(
      'status=PENDING&companyId=7',
    );
    expect(applyOrdersChange(current, { page: 5 }).toString()).toBe('companyId=7&page=5');
  });

  it('keeps the sales rep through other changes, and lets it go on its own', () => {
    const current = params('salesRepId=9&page=2');
    expect(applyOrdersChange(current, { status: 'AWAITING_VERIFICATION' }).toString()).toBe(
      'status=AWAITING_VERIFICATION&salesRepId=9',
    );
    expect(applyOrdersChange(current, { salesRepId: undefined }).toString()).toBe('');
    expect(readOrdersUrl(params('salesRepId=0'))).toMatchObject({ salesRepId: undefined });
  });

  it('asks the server for the orders the chosen sales rep placed', () => {
    expect(ordersQuery(readOrdersUrl(params('salesRepId=9&companyId=3')))).toEqual({
      companyId: 3,
      salesRepId: 9,
      sortBy: 'createdAt',
      sortOrder: 'desc',
      page: 1,
      limit: 20,
    });
  });

  it('asks the server for the page with the filters set, 20 rows', () => {
    expect(ordersQuery(readOrdersUrl(params('search=%20fp-1%20&from=2026-03-01')))).toEqual({
      search: 'fp-1',
      from: '2026-03-01',
      sortBy: 'createdAt',
      sortOrder: 'desc',
      page: 1,
      limit: 20,
    });
  });
});
