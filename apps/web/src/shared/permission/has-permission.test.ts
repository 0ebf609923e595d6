import { describe, expect, it } from 'vitest';
import type { AuthItem } from '@isps/contract';
import { hasPermission } from './has-permission.ts';

const item = (action: string, type: '1' | '2' = '1', status?: '0' | '1'): AuthItem => ({ action, describe: action, type, status });

describe('hasPermission', () => {
  it('grants a code the user holds', () => {
    expect(hasPermission('user:add', [item('user:add')], [item('user:add', '1', '1')])).toBe(true);
  });
  it('refuses a code the user lacks while the system rule is on', () => {
    expect(hasPermission('user:add', [], [item('user:add', '1', '1')])).toBe(false);
  });
  it('grants everyone a code whose system rule is off', () => {
    expect(hasPermission('user:add', [], [item('user:add', '1', '0')])).toBe(true);
  });
  it('ignores type 2 entries on both lists', () => {
    expect(hasPermission('user:add', [item('user:add', '2')], [])).toBe(false);
    expect(hasPermission('user:add', [], [item('user:add', '2', '0')])).toBe(false);
  });
});
