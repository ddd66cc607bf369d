import { describe, expect, it } from 'vitest';
import {
  applyCompaniesChange,
  applyMailChange,
  auditQuery,
  companiesQuery,
  mailQuery,
  readAuditUrl,
  readCompaniesUrl,
  readMailUrl,
  writeCompaniesUrl,
  writeMailUrl,
} from '../../src/features/admin/staff-urls';

const params = (query: string) => new URLSearchParams(query);

describe('the companies list in the address', () => {
  it('reads an empty address as every company, newest first, page 1', () => {
    expect(readCompaniesUrl(params(''))).toEqual({
      search: '',
      status: undefined,
      documents: undefined,
      boothDetails: undefined,
      sortBy: 'createdAt',
      sortOrder: 'desc',
      page: 1,
    });
    expect(writeCompaniesUrl(readCompaniesUrl(params('')))).toBe('/admin/companies');
  });

  it('keeps the search, status, sort and page it was given', () => {
    const view = readCompaniesUrl(
      params(
        'search=Bella&status=PENDING&documents=PENDING&boothDetails=OPEN&sortBy=name&sortOrder=desc&page=3',
      ),
    );
    expect(view).toEqual({
      search: 'Bella',
      status: 'PENDING',
      documents: 'PENDING',
      boothDetails: 'OPEN',
      sortBy: 'name',
      sortOrder: 'desc',
      page: 3,
    });
    expect(writeCompaniesUrl(view)).toBe(
      '/admin/companies?search=Bella&status=PENDING&documents=PENDING&boothDetails=OPEN&sortBy=name&sortOrder=desc&page=3',
    );
  });

  it('leaves out what the server would refuse', () => {
    expect(
      readCompaniesUrl(
        params(
          'status=GONE&documents=ALL&boothDetails=ALL&sortBy=price&sortOrder=up&page=-2&search=',
        ),
      ),
    ).toEqual({
      search: '',
      status: undefined,
      documents: undefined,
      boothDetails: undefined,
      sortBy: 'createdAt',
      sortOrder: 'desc',
      page: 1,
    });
  });

  it('sorts a newly chosen column its own way: names A to Z', () => {
    expect(readCompaniesUrl(params('sortBy=name'))).toMatchObject({ sortOrder: 'asc' });
  });

  it('goes back to page 1 on any change but the page', () => {
    const current = params('search=Bella&page=4');
    expect(applyCompaniesChange(current, { status: 'APPROVED' }).toString()).toBe(
      'search=Bella&status=APPROVED',
    );
    expect(applyCompaniesChange(current, { page: 5 }).toString()).toBe('search=Bella&page=5');
  });

  it('asks the server for a page of 20, without empty filters', () => {
    expect(companiesQuery(readCompaniesUrl(params('search=%20%20')))).toEqual({
      sortBy: 'createdAt',
      sortOrder: 'desc',
      page: 1,
      limit: 20,
    });
  });
});

describe('the audit log in the address', () => {
  it('reads an action and a company, and leaves out unknown ones', () => {
    expect(readAuditUrl(params('action=company.reject&companyId=12&page=2'))).toEqual({
      action: 'company.reject',
      companyId: 12,
      page: 2,
    });
    expect(readAuditUrl(params('action=company.delete&companyId=x'))).toEqual({
      action: undefined,
      companyId: undefined,
      page: 1,
    });
  });

  it('asks the server only for the filters set', () => {
    expect(auditQuery(readAuditUrl(params('companyId=7')))).toEqual({
      companyId: 7,
      page: 1,
      limit: 20,
    });
  });
});

describe('the outgoing e-mail list in the address', () => {
  it('keeps the recipient searched, the status and the page, and drops what the server refuses', () => {
    const view = readMailUrl(params('search=%20salon%40&status=failed&page=2'));
    expect(view).toEqual({ search: ' salon@', status: 'failed', page: 2 });
    expect(writeMailUrl(view)).toBe('/admin/mail?search=salon%40&status=failed&page=2');
    expect(mailQuery(view)).toEqual({ search: 'salon@', status: 'failed', page: 2, limit: 20 });
    expect(readMailUrl(params('status=lost&page=0'))).toEqual({
      search: '',
      status: undefined,
      page: 1,
    });
    expect(writeMailUrl(readMailUrl(params('')))).toBe('/admin/mail');
  });

  it('goes back to page 1 when a filter changes', () => {
    expect(applyMailChange(params('page=3'), { status: 'sent' }).toString()).toBe('status=sent');
    expect(applyMailChange(params('status=sent'), { page: 2 }).toString()).toBe(
      'status=sent&page=2',
    );
  });
});
