import { alarmEntity, RealtimeCmd, softUpdateEntity, SoftUpdateState, translate, type AuthItem, type SoftUpdatePushRow } from '@isps/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { emitAppEvent } from '../../../shared/realtime/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import { applySoftUpdateNotice } from '../api/soft-update-pushes.ts';
import { DeviceEntityScreen } from '../device-screen.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const refused = (message: string) => ({ success: false, message, code: 500, result: null, timestamp: 1 });
const page = (records: unknown[]) => Response.json(ok({ records, total: records.length, size: 10, current: 1, pages: 1 }));
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const NOT_PACKAGE = 'notes.apk is not a software package: only an APK or a tar archive (.tar, .tar.gz, .tgz) can be uploaded';

const pkg = { id: 'pkg1', version: '2.1.0', deviceModel: 'SIM-DOOR', fileName: 'door-2.1.0.tar', fileSize: 10240, checksum: 'ab'.repeat(32), updateLog: 'Faster', createTime: '2026-11-25 08:00:00' };
const push = (id: string, deviceName: string, progress: number, state: SoftUpdateState, error: string | null = null): SoftUpdatePushRow => ({ id, updateId: 'pkg1', deviceId: `dev-${id}`, deviceName, progress, state, error });

let calls: Array<{ method: string; url: URL; body: unknown }>;
let uploadAnswer: unknown;
let pushes: SoftUpdatePushRow[];
let alarmState: number;

function grant(codes: string[]) {
  useSession.getState().setPermissions([], codes.map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  grant(['device:softUpdate:list', 'device:softUpdate:add', 'device:softUpdate:push', 'device:alarm:list', 'device:alarm:handle']);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  calls = [];
  uploadAnswer = refused(NOT_PACKAGE);
  pushes = [push('p1', 'Door 01', 0, SoftUpdateState.queued), push('p2', 'Door 02', 0, SoftUpdateState.queued)];
  alarmState = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      const body = init?.body instanceof FormData ? init.body : init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method: init?.method ?? 'GET', url, body });
      if (url.pathname.endsWith('/sysSoftUpdate/list')) return page([pkg]);
      if (url.pathname.endsWith('/sysSoftUpdate/upload')) return Response.json(uploadAnswer);
      if (url.pathname.endsWith('/sysSoftUpdate/pushes')) return Response.json(ok(pushes));
      if (url.pathname.endsWith('/sysSoftUpdate/push')) return Response.json(ok(pushes, 'The update is sent to the devices'));
      if (url.pathname.endsWith('/sysDevice/list')) return page([{ id: 'dev-p1', deviceName: 'Door 01', sn: 'SIM-0001', deviceModel: 'SIM-DOOR', online: 1 }]);
      // the alarms' area search picks from the area tree
      if (url.pathname.endsWith('/sysArea/queryTreeList')) return Response.json(ok([]));
      if (url.pathname.endsWith('/sysDeviceAlarm/list')) return page([{ id: 'al1', deviceId: 'dev-p1', code: 'TAMPER', level: 'H', state: alarmState, alarmTime: '2026-11-25 08:00:00' }]);
      if (url.pathname.endsWith('/sysDeviceAlarm/acknowledge')) {
        alarmState = 1;
        return Response.json(ok(null, 'The alarm is acknowledged'));
      }
      return page([]);
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const row = (text: string) => screen.getByText(text).closest('tr')!;
const dialog = () => screen.getByRole('dialog');

describe('soft update screen', () => {
  it('sends the form’s fields before the package and shows the server’s refusal under the file, keeping the form open', async () => {
    renderInConsole(<DeviceEntityScreen entity={softUpdateEntity} />);
    await screen.findByText('2.1.0');
    // adding is the upload: no generic add
    expect(screen.queryByRole('button', { name: i18n.t('crud.add') })).toBeNull();
    fireEvent.click(screen.getByText(i18n.t('softUpdate.upload')).closest('button')!);
    await screen.findByText(i18n.t('softUpdate.uploadTitle'));
    const input = dialog().querySelector('input[type="file"]') as HTMLInputElement;
    expect(input.accept).toBe('.apk,.tar,.tar.gz,.tgz');
    fireEvent.change(input, { target: { files: [new File(['just some text'], 'notes.apk', { type: 'application/vnd.android.package-archive' })] } });
    fireEvent.change(within(dialog()).getByLabelText(i18n.t('softUpdate.field.version')), { target: { value: '3.0.0' } });
    fireEvent.change(within(dialog()).getByLabelText(i18n.t('softUpdate.field.deviceModel')), { target: { value: 'SIM-DOOR' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: i18n.t('softUpdate.upload') }));

    expect(await screen.findByText(NOT_PACKAGE)).toBeTruthy();
    expect(screen.getByText(i18n.t('softUpdate.uploadTitle'))).toBeTruthy();
    const sent = calls.find((c) => c.url.pathname.endsWith('/sysSoftUpdate/upload'))!;
    expect(sent.method).toBe('POST');
    const form = sent.body as FormData;
    expect([...form.keys()]).toEqual(['version', 'deviceModel', 'file']);
    expect(form.get('version')).toBe('3.0.0');
    expect((form.get('file') as File).name).toBe('notes.apk');
  });

  it.each(['zh-CN', 'en-US', 'ja-JP'] as const)('%s: a missing version is named in the reader’s language under Version, never as a raw key', async (lang) => {
    await i18n.changeLanguage(lang);
    try {
      renderInConsole(<DeviceEntityScreen entity={softUpdateEntity} />);
      await screen.findByText('2.1.0');
      fireEvent.click(screen.getByText(i18n.t('softUpdate.upload')).closest('button')!);
      await screen.findByRole('dialog');
      fireEvent.click(within(dialog()).getByRole('button', { name: i18n.t('softUpdate.upload') }));
      expect(await within(dialog()).findByText(translate(lang, 'validation.required', { field: i18n.t('softUpdate.field.version') }))).toBeTruthy();
      expect(dialog().textContent).not.toMatch(/\bvalidation\./);
    } finally {
      await i18n.changeLanguage('en-US');
    }
  });

  it('moves each device’s bar from the real-time messages and ends it ok, or failed with the device’s error', async () => {
    renderInConsole(<DeviceEntityScreen entity={softUpdateEntity} />);
    await screen.findByText('2.1.0');
    fireEvent.click(row('2.1.0').querySelector('[data-command="progress"]')!);
    await screen.findByText('Door 02');
    const bar = (device: string) => document.querySelector(`tr[data-device="${device}"]`) as HTMLElement;
    expect(bar('Door 01').dataset.state).toBe('queued');
    const reads = calls.filter((c) => c.url.pathname.endsWith('/sysSoftUpdate/pushes')).length;

    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.softUpdate, msgId: 'pkg1', data: { pushes: [push('p1', 'Door 01', 40, SoftUpdateState.running)] } }));
    await waitFor(() => expect(bar('Door 01').dataset.state).toBe('running'));
    expect(bar('Door 01').querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('40');
    expect(bar('Door 02').dataset.state).toBe('queued');

    act(() =>
      emitAppEvent('realtimeMessage', {
        cmd: RealtimeCmd.softUpdate,
        msgId: 'pkg1',
        data: { pushes: [push('p1', 'Door 01', 100, SoftUpdateState.ok), push('p2', 'Door 02', 65, SoftUpdateState.failed, 'checksum mismatch')] },
      }),
    );
    await waitFor(() => expect(bar('Door 02').dataset.state).toBe('failed'));
    expect(bar('Door 01').dataset.state).toBe('ok');
    expect(bar('Door 01').textContent).toContain(i18n.t('softUpdate.state.ok'));
    expect(bar('Door 02').textContent).toContain('checksum mismatch');
    expect(bar('Door 02').textContent).toContain(i18n.t('softUpdate.state.failed'));
    expect(screen.getByTestId('soft-update-summary').textContent).toBe(i18n.t('softUpdate.summary', { total: 2, ok: 1, failed: 1, running: 0, queued: 0 }));
    // the messages moved the bars: nothing was read again
    expect(calls.filter((c) => c.url.pathname.endsWith('/sysSoftUpdate/pushes')).length).toBe(reads);
  });

  it('pushes to the devices ticked in the picker, of the package’s model, then shows the progress', async () => {
    renderInConsole(<DeviceEntityScreen entity={softUpdateEntity} />);
    await screen.findByText('2.1.0');
    fireEvent.click(row('2.1.0').querySelector('[data-command="push"]')!);
    await screen.findByText(i18n.t('softUpdate.devicesOfModel', { model: 'SIM-DOOR' }));
    const asked = calls.find((c) => c.url.pathname.endsWith('/sysDevice/list'))!;
    expect(JSON.parse(asked.url.searchParams.get('superQueryParams')!)).toEqual([{ field: 'deviceModel', rule: 'eq', val: 'SIM-DOOR' }]);
    const pick = (await screen.findByText('SIM-0001')).closest('tr')!;
    fireEvent.click(pick.querySelector('input[type="checkbox"]')!);
    expect(screen.getByTestId('soft-update-chosen').textContent).toBe(i18n.t('softUpdate.chosenDevices', { count: 1 }));
    fireEvent.click(within(dialog()).getByRole('button', { name: i18n.t('softUpdate.push') }));
    await screen.findByText('The update is sent to the devices');
    expect(calls.find((c) => c.url.pathname.endsWith('/sysSoftUpdate/push'))?.body).toEqual({ id: 'pkg1', deviceIds: ['dev-p1'] });
    expect(await screen.findByText(i18n.t('softUpdate.progressTitle', { version: '2.1.0' }))).toBeTruthy();
  });

  it('keeps a notice’s pushes of other packages out and adds a push not yet listed', () => {
    const rows = [push('p1', 'Door 01', 0, SoftUpdateState.queued)];
    expect(applySoftUpdateNotice(rows, 'pkg1', { pushes: [{ ...push('x', 'Other', 10, SoftUpdateState.running), updateId: 'pkg2' }] })).toBe(rows);
    expect(applySoftUpdateNotice(rows, 'pkg1', { pushes: [push('p3', 'Door 03', 5, SoftUpdateState.running)] }).map((r) => r.id)).toEqual(['p1', 'p3']);
  });
});

describe('alarms screen', () => {
  it('acknowledges an alarm after asking, with device:alarm:handle, and reads the list again', async () => {
    renderInConsole(<DeviceEntityScreen entity={alarmEntity} />);
    await screen.findByText('TAMPER');
    expect(row('TAMPER').textContent).toContain(i18n.t('alarm.state.open'));
    fireEvent.click(row('TAMPER').querySelector('[data-command="acknowledge"]')!);
    await screen.findByText(i18n.t('alarm.acknowledgeConfirm', { name: 'TAMPER' }));
    expect(calls.some((c) => c.url.pathname.endsWith('/sysDeviceAlarm/acknowledge'))).toBe(false);
    fireEvent.click(screen.getByText(i18n.t('common.ok')).closest('button')!);
    await screen.findByText('The alarm is acknowledged');
    expect(calls.find((c) => c.url.pathname.endsWith('/sysDeviceAlarm/acknowledge'))).toMatchObject({ method: 'PUT', body: { id: 'al1' } });
    await waitFor(() => expect(row('TAMPER').textContent).toContain(i18n.t('alarm.state.acknowledged')));
  });

  it('offers neither acknowledging nor closing without device:alarm:handle', async () => {
    grant(['device:alarm:list']);
    renderInConsole(<DeviceEntityScreen entity={alarmEntity} />);
    await screen.findByText('TAMPER');
    expect(document.querySelector('[data-command="acknowledge"]')).toBeNull();
    expect(document.querySelector('[data-command="close"]')).toBeNull();
  });
});
