import { describe, expect, it } from 'vitest';
import { isTokenFreePath } from '../../src/contracts/accounts';

describe('calls that never carry an access token', () => {
  it.each([
    '/api/auth/login',
    '/api/auth/register',
    '/api/auth/register-company',
    '/api/auth/refresh',
    '/api/auth/logout?lng=en',
  ])('include %s', (path) => expect(isTokenFreePath(path)).toBe(true));

  it.each(['/api/auth/me', '/api/auth/login-as', '/api/cart', '/x/api/auth/login'])(
    'exclude %s',
    (path) => expect(isTokenFreePath(path)).toBe(false),
  );
});
