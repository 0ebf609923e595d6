import { patrolTaskEntity, RealtimeCmd, type AuthItem, type PatrolMissedNotice } from '@isps/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../shared/api/index.ts';
import { i18n } from '../../shared/i18n/index.ts';
import { emitAppEvent } from '../../shared/realtime/index.ts';
import { useSession } from '../../shared/session/index.ts';
import { TEST_USER, renderInConsole } from '../../test-providers.tsx';
import { PatrolMissedNotices } from './missed-notices.tsx';
import { PatrolEntityScreen } from './patrol-screen.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const page = (records: unknown[]) => Response.json(ok({ records, total: records.length, size: 10, current: 1, pages: 1 }));

let task: Record<string, unknown>;
let taskReads: number;
let questTasks: string[];

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  localStorage.clear();
  useSession.getState().signIn('tok', TEST_USER);
  useSession.getState().setPermissions([], ['watch:task:list', 'watch:task:add', 'watch:quest:list'].map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  task = { id: 't1', taskDate: '2026-12-02', missionId: 'm1', missionId_dictText: 'Night round', routeId: 'r1', routeId_dictText: 'Yard round', state: 'pending', doneCount: 0, totalCount: 3, missedCount: 0 };
  taskReads = 0;
  questTasks = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/watch/task/list')) {
        taskReads += 1;
        return page([task]);
      }
      if (url.pathname.endsWith('/watch/quest/list')) {
        questTasks.push(url.searchParams.get('taskId') ?? '');
        return page([{ id: 'q1', taskId: 't1', sortNo: 1, placeName: 'Gate 1', result: 'onTime', expectedTime: '2026-12-02 22:00:00' }]);
      }
      return page([]);
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('the patrol task screen', () => {
  it('shows each task’s progress, reads it again when a check-in is reported, and opens its point checks', async () => {
    renderInConsole(<PatrolEntityScreen entity={patrolTaskEntity} />);
    await screen.findByText('Night round');
    expect(document.querySelector('[data-progress="0/3"]')).not.toBeNull();
    expect(screen.getByRole('button', { name: i18n.t('patrolTask.generate') })).toBeTruthy();
    task = { ...task, state: 'inProgress', doneCount: 2, missedCount: 1 };
    const reads = taskReads;
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.patrolState, msgId: 'd1' }));
    await waitFor(() => expect(taskReads).toBeGreaterThan(reads));
    await waitFor(() => expect(document.querySelector('[data-progress="2/3"]')).not.toBeNull());
    fireEvent.click(screen.getByText('Night round').closest('tr')!.querySelector('[data-command="quests"]')!);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Gate 1');
    expect(questTasks).toContain('t1');
  });
});

describe('missed patrol points', () => {
  it.each(['en-US', 'zh-CN', 'ja-JP'] as const)('warn in %s, naming the point, its device, the route and when it was due, until "got it"', async (lang) => {
    await i18n.changeLanguage(lang);
    try {
      renderInConsole(<PatrolMissedNotices />);
      const notice: PatrolMissedNotice = { questId: 'q2', taskId: 't1', routeName: 'Yard round', placeName: 'Gate 2', deviceName: 'PATROL-0002', expectedTime: '2026-12-02 22:30:00', alarmId: `a-${lang}` };
      act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.patrolMissed, msgId: 'q2', data: notice }));
      const title = await screen.findByText(i18n.t('patrol.missedTitle'));
      expect(i18n.t('patrol.missedTitle')).not.toBe('patrol.missedTitle');
      const box = title.closest('.ant-notification-notice')!;
      expect(box.textContent).toContain(i18n.t('patrol.missed', { place: 'Gate 2', device: 'PATROL-0002', route: 'Yard round', time: '2026-12-02 22:30:00' }));
      fireEvent.click(within(box as HTMLElement).getByRole('button', { name: i18n.t('realtime.gotIt') }));
      await waitFor(() => expect(screen.queryByText(i18n.t('patrol.missedTitle'))).toBeNull());
    } finally {
      await i18n.changeLanguage('en-US');
    }
  });
});
