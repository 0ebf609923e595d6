import { reportPath, type ReportResult } from '@isps/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import AccessReports from './access.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
let answer: ReportResult;
let asked: URLSearchParams[];

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  useSession.getState().setPermissions([], ['report:access:view', 'report:access:export'].map((action) => ({ action, describe: action, type: '1' as const })), []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith(reportPath('access', 'run'))) {
        asked.push(url.searchParams);
        return Response.json(ok(answer));
      }
      return Response.json(ok({ records: [], total: 0, size: 10, current: 1, pages: 0 }));
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const byDoor = (rows: ReportResult['rows']): ReportResult => ({ kind: 'accessByDoor', begin: '2026-11-10T00:00:00.000Z', end: '2026-11-17T00:00:00.000Z', columns: ['door', 'device', 'passed', 'refused', 'total'], rows, capped: false });

describe('access reports page', () => {
  it('says so when nothing happened in the period', async () => {
    answer = byDoor([]);
    renderInConsole(<AccessReports />);
    expect(await screen.findByText(i18n.t('reportScreen.empty'))).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    // the period asked is whole days, the last one included
    const params = asked[0]!;
    expect(params.get('kind')).toBe('accessByDoor');
    expect(params.get('begin')).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
    expect(params.get('end')).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
    expect(screen.queryByRole('button', { name: new RegExp(i18n.t('reportScreen.schedules')) })).toBeNull();
  });

  it('shows the figures of each door in the table, with the export', async () => {
    answer = byDoor([
      { key: 'd1|1', door: 'Front door', device: 'Front controller', passed: 12, refused: 3, total: 15 },
      { key: 'd2|1', door: null, device: 'Lab controller', passed: 4, refused: 0, total: 4 },
    ]);
    renderInConsole(<AccessReports />);
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const [header, front, nameless] = within(table).getAllByRole('row');
    expect(within(header!).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Door', 'Device', 'Passed', 'Refused', 'Total']);
    expect(within(front!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Front door', 'Front controller', '12', '3', '15']);
    expect(within(nameless!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['(none)', 'Lab controller', '4', '0', '4']);
    expect(screen.getByRole('img', { name: 'Chart: Access by door' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Access by door', 'Access by person', 'Access by area', 'Access by hour', 'Denials by reason']);
  });
});
