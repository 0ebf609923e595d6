import { AttendanceStatus, type AuthItem } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../shared/api/index.ts';
import { i18n } from '../../shared/i18n/index.ts';
import { useSession } from '../../shared/session/index.ts';
import { TEST_USER, renderInConsole } from '../../test-providers.tsx';
import AttendancePage from './pages/attendance.tsx';
import AttendanceMonthPage from './pages/attendance-month.tsx';

const ok = (result: unknown) => ({ success: true, message: 'Operation succeeded', code: 200, result, timestamp: 1 });
const page = (records: unknown[]) => Response.json(ok({ records, total: records.length, size: 10, current: 1, pages: 1 }));

const day = { id: 'p1-20514', day: '2026-03-03', month: '2026-03', peopleId: 'p1', peopleId_dictText: 'Ann', departId: 'g1', departId_dictText: 'Front office', status: AttendanceStatus.late, checkIn: '2026-03-03 09:20:00', checkOut: '2026-03-03 18:01:00', punchCount: 2, corrected: 0, correctionReason: null };
const month = { id: 'p1-2026-03', month: '2026-03', userId: 'p1', userName: 'Ann', departId: 'g1', workDays: 21, normalCount: 1, lateCount: 1, absenseCount: 18, leaveEarlyCount: 0, missCardCount: 1 };
let corrections: unknown[];

function grant(codes: string[]) {
  useSession.getState().setPermissions([], codes.map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  localStorage.clear();
  useSession.getState().signIn('tok', TEST_USER);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  corrections = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/device/attendance/list')) return page([day]);
      if (url.pathname.endsWith('/device/attendanceMonth/list')) return page([month]);
      if (url.pathname.endsWith('/device/attendance/correct')) {
        corrections.push(JSON.parse(String(init?.body)));
        return Response.json(ok(null));
      }
      if (url.pathname.endsWith('/device/attendance/punches'))
        return Response.json(ok([{ id: 'x', deviceId: 'd1', deviceName: 'Reader 1F', punchTime: '2026-03-03 09:20:00', rawTime: '2026-03-03 09:27:00', source: 'punch', duplicate: false }]));
      if (url.pathname.endsWith('/device/attendanceMonth/calendar'))
        return Response.json(ok([
          { id: 'a', day: '2026-03-02', status: AttendanceStatus.normal, corrected: false },
          { id: 'b', day: '2026-03-03', status: AttendanceStatus.late, corrected: true },
        ]));
      return page([]);
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('the attendance screens', () => {
  it('a day’s correction is offered only to holders of its permission, and sends the result and the reason', async () => {
    grant(['device:attendance:list']);
    const { unmount } = renderInConsole(<AttendancePage />);
    const row = (await screen.findByText('2026-03-03')).closest('tr')!;
    expect(within(row).getByRole('button', { name: 'Punches' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Correct' })).toBeNull();
    unmount();

    grant(['device:attendance:list', 'device:attendance:correct']);
    renderInConsole(<AttendancePage />);
    const again = (await screen.findByText('2026-03-03')).closest('tr')!;
    fireEvent.click(within(again).getByRole('button', { name: 'Correct' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Stuck in a lift' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(corrections).toEqual([{ id: 'p1-20514', status: AttendanceStatus.late, reason: 'Stuck in a lift' }]));
  });

  it('lists a day’s punches with the corrected and the device’s own time', async () => {
    grant(['device:attendance:list']);
    renderInConsole(<AttendancePage />);
    const row = (await screen.findByText('2026-03-03')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Punches' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Reader 1F');
    expect(within(dialog).getByText('2026-03-03 09:27:00')).toBeTruthy();
  });

  it('shows a person’s month as a calendar coloured by result, a corrected day marked', async () => {
    grant(['device:attendanceMonth:list']);
    renderInConsole(<AttendanceMonthPage />);
    const row = (await screen.findByText('Ann')).closest('tr')!;
    expect(screen.queryByRole('button', { name: 'Recompute' })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Calendar' }));
    const grid = await screen.findByRole('grid');
    await waitFor(() => expect(grid.querySelector('[data-day="2026-03-02"]')?.getAttribute('data-status')).toBe(String(AttendanceStatus.normal)));
    expect(grid.querySelector('[data-day="2026-03-03"]')?.textContent).toContain('✎');
    expect(grid.querySelectorAll('[role="gridcell"]')).toHaveLength(31);
  });
});
