import { RealtimeCmd, field, type AuthItem, type EntityDeclaration } from '@isps/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../api/index.ts';
import { i18n } from '../i18n/index.ts';
import { emitAppEvent } from '../realtime/index.ts';
import { useSession } from '../session/index.ts';
import { renderInConsole } from '../../test-providers.tsx';
import { CrudScreen } from './crud-screen.tsx';
import { UNSHOWN_ROWS_DELAY_MS, applyLiveChange, liveChangeOf } from './live-column.ts';

/** A small screen with a live status column and two row commands, as a device list declares them. */
const machine: EntityDeclaration = {
  name: 'machine',
  title: 'device.title',
  basePath: '/machine',
  permissionPrefix: 'test:machine',
  component: 'test/machine',
  labelField: 'name',
  fields: {
    name: field.text('device.field.deviceName', 50, { required: true }),
    online: { ...field.integer('device.field.online', 0, 1), widget: { kind: 'options', options: [{ value: '1', label: 'device.online' }, { value: '0', label: 'device.offline' }] }, readOnly: true },
  },
  columns: ['name', 'online'],
  search: {},
  sortable: [],
  defaultSort: { field: 'createTime', order: 'desc' },
  actions: ['list'],
  live: { field: 'online', on: { deviceConnect: 1, deviceDisConnect: 0 }, badges: { '1': 'success', '0': 'default' } },
  rowCommands: [
    { name: 'capture', label: 'device.setCapture', method: 'GET', path: '/machine/capture', refusalAsWarning: true },
    { name: 'approve', label: 'deviceCode.agree', permission: 'audit', method: 'PUT', path: '/machine/approve', params: { auditStatus: 1 }, confirm: 'deviceCode.agreeConfirm', showResult: 'deviceKey' },
  ],
};

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
let calls: Array<{ method: string; url: URL; body: unknown }>;
let listed: number;
/** rows the server holds beyond the two every list has */
let newcomers: Array<Record<string, unknown>>;

function grant(codes: string[]) {
  const auth: AuthItem[] = codes.map((action) => ({ action, describe: action, type: '1' }));
  useSession.getState().setPermissions([], auth, []);
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  localStorage.clear();
  useSession.getState().signIn('tok', userInfo);
  grant(['test:machine:list', 'test:machine:capture', 'test:machine:audit']);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  calls = [];
  listed = 0;
  newcomers = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      calls.push({ method: init?.method ?? 'GET', url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname.endsWith('/machine/list')) {
        listed++;
        const records = [
          { id: 'm1', name: 'Gate one', online: 0 },
          { id: 'm2', name: 'Gate two', online: 1 },
          ...newcomers,
        ];
        return Response.json(ok({ records, total: records.length, size: 10, current: 1, pages: 1 }));
      }
      if (url.pathname.endsWith('/machine/capture')) return Response.json({ success: false, message: 'Device disconnected', code: 500, result: null, timestamp: 1 });
      if (url.pathname.endsWith('/machine/approve')) return Response.json(ok({ deviceKey: 'KEY-123' }, 'Saved'));
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const row = (name: string) => screen.getByText(name).closest('tr')!;

describe('live columns', () => {
  it('read the rows a message names, by data.ids, data.devices or msgId, and whether it named them all', () => {
    const live = machine.live!;
    expect(liveChangeOf(live, { cmd: RealtimeCmd.deviceConnect, data: { count: 2, ids: ['a', 'b'], devices: [] } })).toEqual({ value: 1, ids: ['a', 'b'], partial: false });
    expect(liveChangeOf(live, { cmd: RealtimeCmd.deviceDisConnect, data: { count: 30, devices: [{ id: 'a' }] } })).toEqual({ value: 0, ids: ['a'], partial: true });
    expect(liveChangeOf(live, { cmd: RealtimeCmd.deviceDisConnect, msgId: 'z' })).toEqual({ value: 0, ids: ['z'], partial: false });
    expect(liveChangeOf(live, { cmd: RealtimeCmd.topic, data: { ids: ['a'] } })).toBeNull();
    const rows = [{ id: 'a', online: 0, online_dictText: 'Offline', children: [{ id: 'b', online: 0 }] }, { id: 'c', online: 0 }];
    const next = applyLiveChange(rows, 'online', { value: 1, ids: ['b', 'a'], partial: false });
    expect(next).toEqual([{ id: 'a', online: 1, children: [{ id: 'b', online: 1 }] }, { id: 'c', online: 0 }]);
    expect(next[1]).toBe(rows[1]);
    expect(applyLiveChange(rows, 'online', { value: 0, ids: ['a'], partial: false })).toBe(rows);
  });

  it('change named rows in place on an open list, and read the list again when a message names only some', async () => {
    renderInConsole(<CrudScreen entity={machine} />);
    await screen.findByText('Gate one');
    expect(row('Gate one').textContent).toContain('Offline');
    const before = listed;
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.deviceConnect, data: { count: 1, ids: ['m1'], devices: [] } }));
    await waitFor(() => expect(row('Gate one').textContent).toContain('Online'));
    expect(row('Gate one').querySelector('.ant-badge-status-success')).toBeTruthy();
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.deviceDisConnect, data: { count: 1, ids: ['m2'], devices: [] } }));
    await waitFor(() => expect(row('Gate two').textContent).toContain('Offline'));
    expect(listed).toBe(before);
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.deviceConnect, data: { count: 40, ids: [], devices: [] } }));
    await waitFor(() => expect(listed).toBe(before + 1));
  });

  it('read the list again once when messages name rows it lacks, as a device connecting for the first time', async () => {
    renderInConsole(<CrudScreen entity={machine} />);
    await screen.findByText('Gate one');
    const before = listed;
    // two first connections close together make one read, which brings the new row
    newcomers = [{ id: 'm3', name: 'Gate three', online: 1 }];
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.deviceConnect, msgId: 'm3', data: { count: 1, ids: ['m3'], devices: [] } }));
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.deviceConnect, msgId: 'm4', data: { count: 1, ids: ['m4'], devices: [] } }));
    expect(listed).toBe(before);
    await waitFor(() => expect(row('Gate three').textContent).toContain('Online'));
    expect(listed).toBe(before + 1);
    // m4 is still not on this page (another page, a filter): its next messages read nothing again, nor do shown rows'
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.deviceDisConnect, msgId: 'm4', data: { count: 1, ids: ['m4'], devices: [] } }));
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.deviceDisConnect, msgId: 'm3', data: { count: 1, ids: ['m3'], devices: [] } }));
    await waitFor(() => expect(row('Gate three').textContent).toContain('Offline'));
    await new Promise((resolve) => setTimeout(resolve, UNSHOWN_ROWS_DELAY_MS * 2));
    expect(listed).toBe(before + 1);
  });
});

describe('row commands', () => {
  it('show a refusal as a warning when declared so, ask before a confirmed command and show its result once', async () => {
    renderInConsole(<CrudScreen entity={machine} />);
    await screen.findByText('Gate one');
    fireEvent.click(row('Gate one').querySelector('[data-command="capture"]')!);
    await screen.findByText('Device disconnected');
    expect(document.querySelector('.ant-message-warning')).toBeTruthy();
    expect(calls.find((c) => c.url.pathname.endsWith('/machine/capture'))?.url.searchParams.get('id')).toBe('m1');

    fireEvent.click(row('Gate two').querySelector('[data-command="approve"]')!);
    await screen.findByText(i18n.t('deviceCode.agreeConfirm', { name: 'Gate two' }));
    expect(calls.some((c) => c.url.pathname.endsWith('/machine/approve'))).toBe(false);
    fireEvent.click(screen.getByText(i18n.t('common.ok')).closest('button')!);
    await screen.findByText('KEY-123');
    expect(calls.find((c) => c.url.pathname.endsWith('/machine/approve'))).toMatchObject({ method: 'PUT', body: { id: 'm2', auditStatus: 1 } });
  });

  it('are hidden without their permission', async () => {
    grant(['test:machine:list']);
    renderInConsole(<CrudScreen entity={machine} />);
    await screen.findByText('Gate one');
    expect(document.querySelector('[data-command]')).toBeNull();
  });
});
