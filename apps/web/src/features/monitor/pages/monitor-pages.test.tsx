import { MonitorPath, MonitorPerm, type DiskInfo } from '@isps/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback, type Feedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import DiskPage from './disk.tsx';
import RedisPage from './redis.tsx';
import RedisTerminalPage from './redis-terminal.tsx';

const envelope = (success: boolean, result: unknown, message = '') => ({ success, message, code: success ? 200 : 500, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const disks: DiskInfo[] = [
  { mount: '/', filesystem: '/dev/sda1', type: 'ext4', size: 100 * 2 ** 30, free: 40 * 2 ** 30, used: 60 * 2 ** 30, usedPercent: 60, dataDir: true },
  { mount: '/backup', filesystem: '/dev/sdb1', type: 'xfs', size: 2 ** 40, free: 2 ** 38, used: 3 * 2 ** 38, usedPercent: 75, dataDir: false },
];
let notify: ReturnType<typeof vi.fn<Feedback['notify']>>;
let answers: Record<string, unknown>;

beforeEach(async () => {
  await i18n.changeLanguage('en-US');
  useSession.getState().signIn('tok', userInfo);
  useSession.getState().setPermissions([], Object.values(MonitorPerm).map((action) => ({ action, describe: action, type: '1' as const })), []);
  notify = vi.fn<Feedback['notify']>();
  setFeedback({ notify, modal: vi.fn() });
  answers = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const path = new URL(input, 'http://console.test').pathname.replace(/^\/api/, '');
      return Response.json(answers[path] ?? envelope(false, null, 'unexpected'));
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('monitoring screens', () => {
  it('the disk screen shows a bar per disk and marks the data folder’s', async () => {
    answers[MonitorPath.disk] = envelope(true, disks);
    renderInConsole(<DiskPage />);
    await waitFor(() => expect(screen.getAllByTestId('monitor-disk-card')).toHaveLength(2));
    expect(document.querySelectorAll('.ant-progress')).toHaveLength(2);
    expect(screen.getAllByText(i18n.t('monitor.disk.dataDir'))).toHaveLength(1);
    expect(screen.getByRole('combobox', { name: i18n.t('monitor.autoRefresh') })).toBeTruthy();
  });

  it('the Redis screen shows its own failure message and the server’s reason when Redis is not configured', async () => {
    answers[MonitorPath.redisInfo] = envelope(false, null, 'Redis is not configured (REDIS_URL is not set)');
    renderInConsole(<RedisPage />);
    await screen.findByText(i18n.t('monitor.fetchFailed.redis'));
    expect(screen.getByText('Redis is not configured (REDIS_URL is not set)')).toBeTruthy();
    expect(screen.getByRole('button', { name: i18n.t('common.retry') })).toBeTruthy();
    // the screen says it, no global notice pops up
    expect(notify).not.toHaveBeenCalled();
  });

  it('the disk screen shows its failure message in Japanese when the source is refused', async () => {
    await i18n.changeLanguage('ja-JP');
    answers[MonitorPath.disk] = envelope(false, null, 'ディスク情報の取得に失敗しました');
    renderInConsole(<DiskPage />);
    await screen.findByTestId('monitor-failed');
    expect(screen.getAllByText(i18n.t('monitor.fetchFailed.disk')).length).toBeGreaterThan(0);
  });

  it('the Redis terminal says it is unavailable without Redis, and shows a refusal in its output', async () => {
    answers[MonitorPath.redisTerminal] = envelope(false, null, 'Redis is not configured (REDIS_URL is not set)');
    const { unmount } = renderInConsole(<RedisTerminalPage />);
    await screen.findByText(i18n.t('monitor.fetchFailed.redisTerminal'));
    unmount();

    answers[MonitorPath.redisTerminal] = envelope(true, { command: 'PING', output: 'PONG' });
    renderInConsole(<RedisTerminalPage />);
    const input = await screen.findByRole('textbox', { name: i18n.t('monitor.terminal.placeholder') });
    await waitFor(() => expect((input as HTMLInputElement).disabled).toBe(false));
    answers[MonitorPath.redisTerminal] = envelope(false, null, 'The command FLUSHALL is not allowed: the terminal runs read-only commands only');
    fireEvent.change(input, { target: { value: 'FLUSHALL' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(screen.getByTestId('monitor-terminal-output').textContent).toContain('The command FLUSHALL is not allowed'));
  });
});
