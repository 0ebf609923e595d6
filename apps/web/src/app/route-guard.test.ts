import { describe, expect, it } from 'vitest';
import { guard, PUBLIC_PATHS } from './route-guard.ts';

describe('route guard', () => {
  it.each(PUBLIC_PATHS)('lets %s through without a token', (path) => {
    expect(guard(path, '', '', false)).toEqual({ kind: 'allow' });
  });

  it('sends a visit without a token to the login page with the full wanted path', () => {
    expect(guard('/dashboard/clock', '?a=1&b=2', '#x', false)).toEqual({
      kind: 'redirect',
      to: `/user/login?redirect=${encodeURIComponent('/dashboard/clock?a=1&b=2#x')}`,
    });
  });

  it('sends the root without a token to login, to come back home', () => {
    expect(guard('/', '', '', false)).toEqual({ kind: 'redirect', to: `/user/login?redirect=${encodeURIComponent('/dashboard/analysis')}` });
  });

  it('sends the visitor main page to the visitor login', () => {
    expect(guard('/vistor/user/main', '', '', false)).toEqual({ kind: 'redirect', to: '/vistor/login' });
  });

  it('sends a signed-in visit of the login page home', () => {
    expect(guard('/user/login', '', '', true)).toEqual({ kind: 'redirect', to: '/dashboard/analysis' });
    expect(guard('/user/login', '?redirect=%2Fdashboard%2Fclock%3Fa%3D1', '', true)).toEqual({ kind: 'redirect', to: '/dashboard/clock?a=1' });
    expect(guard('/user/login', '?redirect=https%3A%2F%2Fevil.test', '', true)).toEqual({ kind: 'redirect', to: '/dashboard/analysis' });
    expect(guard('/user/login', '?redirect=%2F%2Fevil.test', '', true)).toEqual({ kind: 'redirect', to: '/dashboard/analysis' });
    expect(guard('/dashboard/clock', '', '', true)).toEqual({ kind: 'allow' });
    expect(guard('/vistor/user/main', '', '', true)).toEqual({ kind: 'allow' });
  });

  it('sends /user to the login page, and with a session on from there home (SPEC section 2)', () => {
    for (const path of ['/user', '/user/']) {
      expect(guard(path, '', '', true)).toEqual({ kind: 'redirect', to: '/user/login' });
      expect(guard(path, '', '', false)).toEqual({ kind: 'redirect', to: '/user/login' });
    }
    expect(guard('/user/login', '', '', true)).toEqual({ kind: 'redirect', to: '/dashboard/analysis' });
  });
});
