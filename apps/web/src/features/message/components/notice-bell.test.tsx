import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback, type Feedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { NOTICE_REFRESH_MS } from '../api/list-by-user.ts';
import { NoticeBell } from './notice-bell.tsx';

const summary = (total: number) => ({
  success: true,
  message: '',
  code: 200,
  result: { anntMsgList: [], anntMsgTotal: total, sysMsgList: [], sysMsgTotal: 0 },
  timestamp: 1,
});

let loads: number;
let failing: boolean;
let notify: ReturnType<typeof vi.fn<Feedback['notify']>>;
let modal: ReturnType<typeof vi.fn<Feedback['modal']>>;

beforeEach(() => {
  vi.useFakeTimers();
  loads = 0;
  failing = false;
  notify = vi.fn();
  modal = vi.fn();
  setFeedback({ notify, modal });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (!url.includes('/sys/annountCement/listByUser')) throw new Error(`unexpected call ${url}`);
      loads++;
      if (failing) return Response.json({ success: false, message: 'database is down', code: 500, result: null, timestamp: 1 }, { status: 500 });
      return Response.json(summary(loads));
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets the fake clock run `ms` and every load it starts settle. */
const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

function renderBell() {
  render(
    <I18nextProvider i18n={i18n}>
      <ConfigProvider>
        <App>
          <MemoryRouter>
            <QueryClientProvider client={new QueryClient()}>
              <NoticeBell />
            </QueryClientProvider>
          </MemoryRouter>
        </App>
      </ConfigProvider>
    </I18nextProvider>,
  );
}

describe('notice bell refresh (SPEC section 4)', () => {
  it('loads once at start and then once every 6 s', async () => {
    expect(NOTICE_REFRESH_MS).toBe(6000);
    renderBell();
    await wait(0);
    expect(loads).toBe(1);
    expect(screen.getByTestId('notice-bell').getAttribute('data-count')).toBe('1');
    await wait(5999);
    expect(loads).toBe(1);
    await wait(1);
    expect(loads).toBe(2);
    // the answer reaches the bell a moment later
    await wait(10);
    expect(screen.getByTestId('notice-bell').getAttribute('data-count')).toBe('2');
    await wait(6000 * 3 - 10);
    expect(loads).toBe(5);
  });

  it('a failing load stops the timer without showing anything', async () => {
    renderBell();
    await wait(0);
    expect(loads).toBe(1);
    failing = true;
    await wait(6000);
    expect(loads).toBe(2);
    await wait(60_000);
    expect(loads).toBe(2);
    expect(notify).not.toHaveBeenCalled();
    expect(modal).not.toHaveBeenCalled();
    expect(document.querySelector('.ant-message-notice, .ant-notification-notice, .ant-modal')).toBeNull();
    // the bell keeps what it last knew
    expect(screen.getByTestId('notice-bell').getAttribute('data-count')).toBe('1');
  });
});
