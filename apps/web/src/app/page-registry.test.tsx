import { Limits } from '@isps/contract';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../shared/i18n/index.ts';
import { hasPage, pageModuleKey } from './page-registry';
import { MenuPage } from './tabs/page-host.tsx';

// The clock page's chunk never answers, as a stalled request after a new release would.
vi.mock('../features/dashboard/pages/clock.tsx', () => new Promise(() => undefined));

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('page registry', () => {
  it('maps a menu component to its page module', () => {
    expect(pageModuleKey('/user/Login.vue')).toBe('../features/user/pages/login.tsx');
    expect(hasPage('user/login')).toBe(true);
  });

  it('never serves a test file as a screen', () => {
    expect(hasPage('user/login.test')).toBe(false);
  });

  it('gives up on a page chunk that never answers after 120 s and offers to try again', async () => {
    vi.useFakeTimers();
    // React reports the caught error on the console; the boundary's screen is what this test reads
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const t = i18n.getFixedT('en-US');
    await i18n.changeLanguage('en-US');
    render(<MenuPage component="dashboard/clock" />);
    await act(() => vi.advanceTimersByTimeAsync(Limits.chunkLoadTimeoutMs - 1000));
    // still waiting a second before the limit
    expect(screen.queryByText(t('exception.pageFailed'))).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByText(t('exception.pageFailed'))).toBeTruthy();
    expect(screen.getByText(t('exception.chunkFailed'))).toBeTruthy();
    expect(screen.getByRole('button', { name: t('common.retry') })).toBeTruthy();
  });
});
