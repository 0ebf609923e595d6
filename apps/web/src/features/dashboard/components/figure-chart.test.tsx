import { act, render, screen, within } from '@testing-library/react';
import { theme } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { cloneElement, type ReactElement } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../shared/i18n/index.ts';
import { useLayoutSettings } from '../../../shared/layout-settings/index.ts';
import { AntdProviders, consoleTheme } from '../../../shared/ui/antd-providers.tsx';
import { renderInConsole } from '../../../test-providers.tsx';
import { AccessHourChart, AlarmLevelChart, AttendanceChart, CabinetChart, DeviceSystemChart, LoginWeekChart } from './dashboard-charts.tsx';

/** The rows of a chart's table (what a screen reader reads), each as its cells' texts. */
function tableOf(testId: string): string[][] {
  const table = within(screen.getByTestId(testId)).getByRole('table');
  return within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));
}

// jsdom lays nothing out, so a responsive chart would measure 0 px and draw nothing: here it is drawn 480 px wide.
vi.mock('recharts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('recharts')>()),
  ResponsiveContainer: ({ children }: { children: ReactElement<{ width?: number; height?: number }> }) => cloneElement(children, { width: 480, height: 220 }),
}));

const zeros = () => Array.from({ length: 24 }, () => 0);

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});
afterAll(async () => {
  await i18n.changeLanguage('zh-CN');
});

describe('the home page charts', () => {
  it('name every hour’s openings, denials and events in their table, numbers in the chosen language', () => {
    const openings = zeros();
    openings[9] = 1234;
    const denials = zeros();
    denials[9] = 2;
    const events = zeros();
    events[9] = 1300;
    renderInConsole(<AccessHourChart access={{ openings, denials }} events={events} />);
    const rows = tableOf('chart-access');
    expect(rows[0]).toEqual(['Hour', 'Openings', 'Denials', 'All events']);
    expect(rows).toHaveLength(25);
    expect(rows[10]).toEqual(['09:00', '1,234', '2', '1,300']);
    expect(screen.getByRole('table').querySelector('caption')?.textContent).toBe(i18n.t('dashboard.eventsByHour'));
    expect(screen.queryByText(i18n.t('dashboard.noData'))).toBeNull();
  });

  it('say there is nothing to show when every figure is zero, and still give the zeros to read', () => {
    renderInConsole(<AccessHourChart access={{ openings: zeros(), denials: zeros() }} events={undefined} />);
    expect(screen.getByText(i18n.t('dashboard.noData'))).toBeTruthy();
    expect(tableOf('chart-access')[1]).toEqual(['00:00', '0', '0']);
  });

  it('give devices online and offline per system', () => {
    renderInConsole(
      <DeviceSystemChart
        systems={[
          { system: 'abDoor', online: 3, offline: 1 },
          { system: 'other', online: 0, offline: 2 },
        ]}
      />,
    );
    expect(tableOf('chart-devices')).toEqual([
      ['System', 'Online', 'Offline'],
      ['AB door', '3', '1'],
      ['Other', '0', '2'],
    ]);
  });

  it('give the open alarms per level, the most urgent first, with their total', () => {
    renderInConsole(<AlarmLevelChart levels={{ L: 1, M: 0, H: 4 }} />);
    expect(tableOf('chart-alarms')).toEqual([
      ['Level', 'Count'],
      ['Urgent', '4'],
      ['Important', '0'],
      ['Normal', '1'],
      ['Total', '5'],
    ]);
  });

  it('give today’s attendance and the cabinets, or nothing to show when none', () => {
    renderInConsole(
      <>
        <AttendanceChart attendance={{ normal: 8, late: 2, absent: 1 }} />
        <CabinetChart cabinets={{ occupied: 0, free: 0 }} />
      </>,
    );
    expect(tableOf('chart-attendance')).toEqual([['Result', 'Count'], ['Normal', '8'], ['Late', '2'], ['Absent', '1'], ['Total', '11']]);
    expect(within(screen.getByTestId('chart-cabinets')).getByText(i18n.t('dashboard.noData'))).toBeTruthy();
    expect(within(screen.getByTestId('chart-attendance')).queryByText(i18n.t('dashboard.noData'))).toBeNull();
  });

  it('name the week’s days in the chosen language', async () => {
    const days = [
      { date: '2026-11-27', count: 0 },
      { date: '2026-11-28', count: 3 },
    ];
    const { unmount } = renderInConsole(<LoginWeekChart days={days} />);
    expect(tableOf('chart-logins')).toEqual([['Day', 'Logins'], ['11/27', '0'], ['11/28', '3']]);
    unmount();
    await i18n.changeLanguage('ja-JP');
    renderInConsole(<LoginWeekChart days={days} />);
    expect(tableOf('chart-logins')[0]).toEqual([i18n.t('dashboard.day'), i18n.t('dashboard.logins')]);
    expect(tableOf('chart-logins')[2]).toEqual(['11/28', '3']);
    await i18n.changeLanguage('en-US');
  });
});

describe('the charts in the light and the dark theme', () => {
  const ticks = () => [...screen.getByTestId('chart-logins').querySelectorAll('.recharts-cartesian-axis-tick-value')].map((tick) => tick.getAttribute('fill'));
  const legendColour = () => (screen.getByTestId('chart-logins').querySelector('.recharts-legend-item-text > span') as HTMLElement | null)?.style.color;
  const grid = () => screen.getByTestId('chart-logins').querySelector('.recharts-cartesian-grid line')?.getAttribute('stroke');

  afterAll(() => {
    useLayoutSettings.getState().reset();
  });

  it('draw axis texts, grid and legend in the active theme’s colours and follow a switch at once', async () => {
    useLayoutSettings.getState().update({ contentTheme: 'light' });
    const days = [
      { date: '2026-11-27', count: 2 },
      { date: '2026-11-28', count: 3 },
    ];
    render(
      <I18nextProvider i18n={i18n}>
        <AntdProviders>
          <LoginWeekChart days={days} />
        </AntdProviders>
      </I18nextProvider>,
    );
    const light = theme.getDesignToken(consoleTheme({ primary: '#1890FF', dark: false, reducedMotion: false }));
    const dark = theme.getDesignToken(consoleTheme({ primary: '#1890FF', dark: true, reducedMotion: false }));
    expect(ticks().length).toBeGreaterThan(0);
    expect(new Set(ticks())).toEqual(new Set([light.colorTextSecondary]));
    expect(grid()).toBe(light.colorBorderSecondary);
    expect(legendColour()).toBe('rgba(0, 0, 0, 0.88)');

    await act(async () => {
      useLayoutSettings.getState().update({ contentTheme: 'dark' });
    });
    expect(dark.colorTextSecondary).not.toBe(light.colorTextSecondary);
    expect(new Set(ticks())).toEqual(new Set([dark.colorTextSecondary]));
    expect(grid()).toBe(dark.colorBorderSecondary);
    expect(legendColour()).toBe('rgba(255, 255, 255, 0.85)');
  });
});
