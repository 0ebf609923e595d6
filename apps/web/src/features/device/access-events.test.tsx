import { accessEventEntity, doorEventEntity, type AuthItem } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../shared/api/index.ts';
import { i18n } from '../../shared/i18n/index.ts';
import { useSession } from '../../shared/session/index.ts';
import { renderInConsole } from '../../test-providers.tsx';
import { DeviceEntityScreen } from './device-screen.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const PERSON = '7f0c2a4e-0d2f-4a55-9f57-1b1f5d3c9a01';
const DOOR = '2b9e6c1d-5a8f-4e21-8c3b-6d7e9f0a1b22';
const DEVICE = '9c8b7a6d-1e2f-4a3b-8c9d-0e1f2a3b4c55';
const opening = {
  id: 'ev1',
  eventTime: '2026-11-27 08:01:02',
  kind: 'opening',
  result: 1,
  serverVerdict: 'unknown',
  flagged: 1,
  peopleId: PERSON,
  peopleId_dictText: 'Ada Reader',
  cardNoMasked: '****0001',
  doorId: DOOR,
  doorId_dictText: 'Lobby door',
  deviceId: DEVICE,
  deviceId_dictText: 'Lobby controller',
  doorNo: 1,
  method: 'card',
  detail: null,
};

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  useSession.getState().setPermissions([], ['device:accessEvent:list', 'device:doorEvent:list'].map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/sysAccessEvent/queryById')) return Response.json(ok(opening));
      if (url.pathname.endsWith('/sysAccessEvent/list')) return Response.json(ok({ records: [opening], total: 1, size: 10, current: 1, pages: 1 }));
      if (url.pathname.endsWith('/sysDoorEvent/list'))
        return Response.json(ok({ records: [{ id: 'de1', eventTime: '2026-11-27 08:01:03', doorId: DOOR, doorId_dictText: 'Lobby door', state: 'open', deviceId: DEVICE, deviceId_dictText: 'Lobby controller', doorNo: 1 }], total: 1, size: 10, current: 1, pages: 1 }));
      return Response.json(ok({ records: [], total: 0, size: 10, current: 1, pages: 0 }));
    }),
  );
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en-US');
});

describe('access records', () => {
  it.each([
    ['zh-CN', '刷卡', '未知人员', '违规开门'],
    ['ja-JP', 'カード', '不明な人員', '規則外の開錠'],
    ['en-US', 'Card', 'Unknown person', 'Opened against the rules'],
  ])('the list and the detail drawer name the person, door and device, with every value in %s', async (lang, method, verdict, flagged) => {
    await i18n.changeLanguage(lang);
    renderInConsole(<DeviceEntityScreen entity={accessEventEntity} />);
    const row = (await screen.findByText('Ada Reader')).closest('tr')!;
    expect(row.textContent).toContain('Lobby door');
    expect(row.textContent).toContain('Lobby controller');
    expect(row.textContent).toContain(method);
    expect(row.textContent).toContain(flagged);
    expect(row.textContent).not.toContain(PERSON);

    fireEvent.click(within(row).getByRole('button', { name: i18n.t('crud.detail') }));
    const drawer = await screen.findByRole('dialog');
    await waitFor(() => expect(drawer.textContent).toContain('Ada Reader'));
    for (const text of ['Lobby door', 'Lobby controller', method, verdict, flagged]) expect(drawer.textContent).toContain(text);
    for (const id of [PERSON, DOOR, DEVICE]) expect(drawer.textContent).not.toContain(id);
  });

  it('door states have their own list, with the door named and the state localised', async () => {
    await i18n.changeLanguage('zh-CN');
    renderInConsole(<DeviceEntityScreen entity={doorEventEntity} />);
    const row = (await screen.findByText('Lobby door')).closest('tr')!;
    expect(row.textContent).toContain('打开');
    expect(row.textContent).toContain('Lobby controller');
    expect(row.textContent).not.toContain(DOOR);
  });
});
