import type { AuthItem, InterfaceTestResult } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { TEST_USER, renderInConsole } from '../../../test-providers.tsx';
import InterfaceTestPage from './interface-test.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const TIMEOUT_TEXT = 'The device did not answer in time: the command will not run later';
const devices = [
  { id: 'd1', deviceName: 'Locker wall 1', sn: 'CAB-1', online: 1 },
  { id: 'd2', deviceName: 'Locker wall 2', sn: 'CAB-2', online: 0 },
];

let calls: Array<{ method: string; url: URL; body: unknown }>;
/** answers the pending interface test call */
let answerTest: ((envelope: unknown) => void) | null;

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', TEST_USER);
  useSession.getState().setPermissions([], ['storage:interfaceTest:view'].map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  calls = [];
  answerTest = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      calls.push({ method: init?.method ?? 'GET', url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname.endsWith('/cabinet/interfaceTest/devices')) return Response.json(ok(devices));
      if (url.pathname.endsWith('/cabinet/interfaceTest/send')) return new Promise<Response>((resolve) => (answerTest = (envelope) => resolve(Response.json(envelope))));
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const page = () => screen.getByTestId('interface-test');

async function choose(label: string, option: string) {
  fireEvent.mouseDown(within(page()).getByRole('combobox', { name: label }));
  const found = await waitFor(() => {
    const hit = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].find((o) => o.textContent === option);
    expect(hit).toBeTruthy();
    return hit!;
  });
  fireEvent.click(found);
}

const send = () => fireEvent.click(page().querySelector('button[data-command="send"]')!);
const tests = () => calls.filter((c) => c.url.pathname.endsWith('/cabinet/interfaceTest/send'));

describe('storage interface test', () => {
  it('asks for the cabinet devices, sends a command with its cabinet, waits with a spinner and shows the answer', async () => {
    renderInConsole(<InterfaceTestPage />);
    // under the page's own permission: the operator may not read the device list
    await waitFor(() => expect(calls.some((c) => c.url.pathname.endsWith('/cabinet/interfaceTest/devices'))).toBe(true));
    expect(calls.some((c) => c.url.pathname.endsWith('/sysDevice/list'))).toBe(false);

    await choose(i18n.t('storageInterfaceTest.field.deviceId'), 'Locker wall 1');
    // the terminal's status needs no cabinet; opening one does
    expect(within(page()).queryByRole('spinbutton', { name: i18n.t('storageInterfaceTest.field.cabinetNo') })).toBeNull();
    await choose(i18n.t('storageInterfaceTest.field.command'), i18n.t('storageInterfaceTest.command.open'));
    send();
    await screen.findByText(i18n.t('interfaceTest.cabinetRequired'));
    expect(tests()).toHaveLength(0);
    fireEvent.change(await within(page()).findByRole('spinbutton', { name: i18n.t('storageInterfaceTest.field.cabinetNo') }), { target: { value: '7' } });
    send();

    await screen.findByTestId('interface-test-waiting');
    expect(tests()[0]).toMatchObject({ method: 'POST', body: { deviceId: 'd1', command: 'open', cabinetNo: 7 } });
    const result: InterfaceTestResult = { commandId: 'cmd1', kind: 'openCabinet', status: 'answered', ok: true, reply: { cabinet: 7, open: true }, elapsedMs: 412 };
    answerTest!(ok(result, 'The device answered'));

    const card = await screen.findByTestId('interface-test-result');
    expect(screen.queryByTestId('interface-test-waiting')).toBeNull();
    expect(card.dataset.status).toBe('answered');
    expect(card.textContent).toContain(i18n.t('interfaceTest.ok'));
    expect(card.textContent).toContain(i18n.t('interfaceTest.elapsedMs', { ms: 412 }));
    expect(card.textContent).toContain('Locker wall 1');
    expect(within(card).getByTestId('interface-test-reply').textContent).toBe(JSON.stringify({ cabinet: 7, open: true }, null, 2));
  });

  it('shows the server’s words when the device did not answer in time, and keeps the last results listed', async () => {
    renderInConsole(<InterfaceTestPage />);
    await choose(i18n.t('storageInterfaceTest.field.deviceId'), `Locker wall 2 (${i18n.t('device.offline')})`);
    send();
    await screen.findByTestId('interface-test-waiting');
    expect(tests()[0]?.body).toEqual({ deviceId: 'd2', command: 'status' });
    answerTest!(ok({ commandId: 'cmd2', kind: 'cabinetStatus', status: 'answered', ok: false, reply: null, elapsedMs: 90 }, 'The device answered'));
    await waitFor(() => expect(screen.getByTestId('interface-test-result').textContent).toContain(i18n.t('interfaceTest.failed')));

    await choose(i18n.t('storageInterfaceTest.field.command'), i18n.t('storageInterfaceTest.command.sync'));
    send();
    await screen.findByTestId('interface-test-waiting');
    answerTest!(ok({ commandId: 'cmd3', kind: 'cabinetReport', status: 'timeout', ok: null, reply: null, elapsedMs: 10_004 }, TIMEOUT_TEXT));
    const card = await waitFor(() => {
      const shown = screen.getByTestId('interface-test-result');
      expect(shown.dataset.status).toBe('timeout');
      return shown;
    });
    expect(within(card).getByText(TIMEOUT_TEXT)).toBeTruthy();
    expect(card.textContent).toContain(i18n.t('interfaceTest.timeout'));
    expect(within(card).queryByTestId('interface-test-reply')).toBeNull();

    const history = screen.getByRole('table', { name: i18n.t('interfaceTest.history') });
    const rows = within(history).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain(i18n.t('storageInterfaceTest.command.sync'));
    expect(rows[0]?.textContent).toContain(i18n.t('interfaceTest.timeout'));
    expect(rows[1]?.textContent).toContain(i18n.t('storageInterfaceTest.command.status'));
    expect(rows[1]?.textContent).toContain(i18n.t('interfaceTest.failed'));
  });

  it('shows a refusal (the device offline) as a warning', async () => {
    renderInConsole(<InterfaceTestPage />);
    await choose(i18n.t('storageInterfaceTest.field.deviceId'), 'Locker wall 1');
    send();
    await screen.findByTestId('interface-test-waiting');
    answerTest!({ success: false, message: 'The device is offline', code: 500, result: null, timestamp: 1 });
    await screen.findByText('The device is offline');
    expect(document.querySelector('.ant-message-warning')).toBeTruthy();
    expect(screen.queryByTestId('interface-test-result')).toBeNull();
  });
});
