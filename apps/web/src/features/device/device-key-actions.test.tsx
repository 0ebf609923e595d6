import { deviceEntity, DevicePath, permissionCode, type AuthItem } from '@isps/contract';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../shared/api/index.ts';
import { i18n } from '../../shared/i18n/index.ts';
import { useSession } from '../../shared/session/index.ts';
import { renderInConsole } from '../../test-providers.tsx';
import { DeviceEntityScreen } from './device-screen.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
let calls: Array<{ method: string; path: string; body: unknown }>;

function grant(actions: string[]) {
  const auth: AuthItem[] = ['list', ...actions].map((action) => ({ action: permissionCode(deviceEntity, action), describe: action, type: '1' }));
  useSession.getState().setPermissions([], auth, []);
}

beforeEach(() => {
  localStorage.clear();
  useSession.getState().signIn('tok', userInfo);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      calls.push({ method: init?.method ?? 'GET', path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname.endsWith('/sysDevice/list')) return Response.json(ok({ records: [{ id: 'd1', deviceName: 'Gate one', sn: 'GATE-1', online: 1 }], total: 1, size: 10, current: 1, pages: 1 }));
      if (url.pathname.endsWith(DevicePath.revokeKey)) return Response.json(ok(null, 'Revoked'));
      return Response.json(ok(url.pathname.endsWith('/capturelist') ? { records: [], capDevice: null } : []));
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('device key buttons of the device list', () => {
  it.each(['en-US', 'zh-CN', 'ja-JP'] as const)('rotate and revoke a key after a confirmation, in %s', async (lang) => {
    await i18n.changeLanguage(lang);
    grant(['rotateKey', 'revokeKey']);
    renderInConsole(<DeviceEntityScreen entity={deviceEntity} />);
    const row = (await screen.findByText('Gate one')).closest('tr')!;
    expect(row.querySelector('[data-command="rotateKey"]')?.textContent).toBe(i18n.t('device.rotateKey'));
    fireEvent.click(row.querySelector('[data-command="revokeKey"]')!);
    // asked first, in the reader's language and naming the device
    await screen.findByText(i18n.t('device.revokeKeyConfirm', { name: 'Gate one' }));
    expect(i18n.t('device.revokeKeyConfirm', { name: 'Gate one' })).not.toContain('device.');
    expect(calls.some((c) => c.path.endsWith(DevicePath.revokeKey))).toBe(false);
    fireEvent.click(screen.getByText(i18n.t('common.ok')).closest('button')!);
    await screen.findByText('Revoked');
    expect(calls.find((c) => c.path.endsWith(DevicePath.revokeKey))).toMatchObject({ method: 'POST', body: { id: 'd1' } });
  });

  it('are hidden without their permissions', async () => {
    await i18n.changeLanguage('en-US');
    grant([]);
    renderInConsole(<DeviceEntityScreen entity={deviceEntity} />);
    const row = (await screen.findByText('Gate one')).closest('tr')!;
    expect(row.querySelector('[data-command="rotateKey"], [data-command="revokeKey"]')).toBeNull();
  });
});
