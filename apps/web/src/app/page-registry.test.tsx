import { describe, expect, it } from 'vitest';
import { hasPage, pageModuleKey } from './page-registry';

describe('page registry', () => {
  it('maps a menu component to its page module', () => {
    expect(pageModuleKey('/user/Login.vue')).toBe('../features/user/pages/login.tsx');
    expect(hasPage('user/login')).toBe(true);
  });

  it('never serves a test file as a screen', () => {
    expect(hasPage('user/login.test')).toBe(false);
  });
});
