import { keyEntity, RealtimeCmd, type AuthItem, type KeyHistoryRow, type KeyOverdueNotice } from '@isps/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../shared/api/index.ts';
import { i18n } from '../../shared/i18n/index.ts';
import { emitAppEvent } from '../../shared/realtime/index.ts';
import { useSession } from '../../shared/session/index.ts';
import { TEST_USER, renderInConsole } from '../../test-providers.tsx';
import { KeyEntityScreen } from './key-screen.tsx';
import { KeyOverdueNotices } from './overdue-notices.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const page = (records: unknown[]) => Response.json(ok({ records, total: records.length, size: 10, current: 1, pages: 1 }));

const keys = [
  { id: 'k1', keyName: 'Van key', deviceId: 'd1', deviceId_dictText: 'Key cabinet 1F', slotNo: 1, status: 1, holderId: 'p1', holderId_dictText: 'Ann', takenTime: '2026-12-01 09:00:00', overdue: 0, releaseInEmergency: 0 },
  { id: 'k2', keyName: 'Safe key', deviceId: 'd1', deviceId_dictText: 'Key cabinet 1F', slotNo: 2, status: 0, holderId: null, takenTime: null, overdue: 0, releaseInEmergency: 1 },
];
let history: Record<string, KeyHistoryRow[]>;
let historyReads: string[];

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  localStorage.clear();
  useSession.getState().signIn('tok', TEST_USER);
  useSession.getState().setPermissions([], ['ks:key:list', 'ks:key:edit'].map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  history = {
    k1: [
      { id: 'r2', takeTime: '2026-12-01 09:00:00', returnTime: null, peopleId: 'p1', peopleName: 'Ann', idCard: '*******0001', overdueTime: null },
      { id: 'r1', takeTime: '2026-11-30 08:00:00', returnTime: '2026-11-30 17:00:00', peopleId: 'p1', peopleName: 'Ann', idCard: '*******0001', overdueTime: '2026-11-30 12:00:00' },
    ],
    k2: [],
  };
  historyReads = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/ks/key/list')) return page(keys);
      if (url.pathname.endsWith('/ks/key/history')) {
        const id = url.searchParams.get('id') ?? '';
        historyReads.push(id);
        return Response.json(ok(history[id] ?? []));
      }
      return page([]);
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const row = (text: string) => screen.getByText(text).closest('tr')!;

describe('the key screen', () => {
  it('shows each key’s holder and state, and its history newest first, read again when a take or return is reported', async () => {
    renderInConsole(<KeyEntityScreen entity={keyEntity} />);
    await screen.findByText('Van key');
    expect(row('Van key').textContent).toContain(i18n.t('key.status.taken'));
    expect(row('Van key').textContent).toContain('Ann');
    fireEvent.click(row('Van key').querySelector('[data-command="history"]')!);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText(i18n.t('key.historyTitle', { name: 'Van key' }));
    await waitFor(() => expect(dialog.querySelectorAll('tr.ant-table-row')).toHaveLength(2));
    const [latest, earlier] = [...dialog.querySelectorAll('tr.ant-table-row')].map((r) => r.textContent ?? '');
    expect(latest).toContain(i18n.t('key.history.notReturned'));
    expect(earlier).toContain('2026-11-30 17:00:00');
    expect(earlier).toContain('2026-11-30 12:00:00');

    history.k1 = [{ ...history.k1![0]!, returnTime: '2026-12-01 10:00:00' }, history.k1![1]!];
    const reads = historyReads.length;
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.keyState, msgId: 'd1' }));
    await waitFor(() => expect(historyReads.length).toBeGreaterThan(reads));
    await waitFor(() => expect(dialog.textContent).not.toContain(i18n.t('key.history.notReturned')));
  });

  it('says so when a key was never taken', async () => {
    renderInConsole(<KeyEntityScreen entity={keyEntity} />);
    await screen.findByText('Safe key');
    fireEvent.click(row('Safe key').querySelector('[data-command="history"]')!);
    await screen.findByText(i18n.t('key.historyEmpty'));
  });
});

describe('overdue keys', () => {
  it.each(['en-US', 'zh-CN', 'ja-JP'] as const)('warn in %s, naming the key, the cabinet, the holder and the take, until "got it"', async (lang) => {
    await i18n.changeLanguage(lang);
    try {
      renderInConsole(<KeyOverdueNotices />);
      const notice: KeyOverdueNotice = { keyId: 'k1', keyName: 'Van key', deviceName: 'Key cabinet 1F', peopleName: 'Ann', takeTime: '2026-12-01 09:00:00', alarmId: `a-${lang}` };
      act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.keyOverdue, msgId: 'k1', data: notice }));
      const title = await screen.findByText(i18n.t('keys.overdueTitle'));
      const box = title.closest('.ant-notification-notice')!;
      expect(box.textContent).toContain(i18n.t('keys.overdue', { key: 'Van key', device: 'Key cabinet 1F', people: 'Ann', time: '2026-12-01 09:00:00' }));
      expect(i18n.t('keys.overdueTitle')).not.toBe('keys.overdueTitle');
      fireEvent.click(within(box as HTMLElement).getByRole('button', { name: i18n.t('realtime.gotIt') }));
      await waitFor(() => expect(screen.queryByText(i18n.t('keys.overdueTitle'))).toBeNull());
    } finally {
      await i18n.changeLanguage('en-US');
    }
  });
});
