import { act, render, screen } from '@testing-library/react';
import { App as AntApp, theme } from 'antd';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadLayoutSettings, useLayoutSettings } from '../shared/layout-settings/index.ts';
import { AntdProviders as Providers, TOAST_LIMIT, consoleTheme } from '../shared/ui/antd-providers.tsx';
import { Providers as ConsoleProviders } from './providers.tsx';

function Burst({ count }: { count: number }) {
  const { message, notification } = AntApp.useApp();
  useEffect(() => {
    for (let i = 1; i <= count; i += 1) {
      void message.success(`Saved ${i}`, 30);
      notification.info({ title: `Notice ${i}`, duration: 30 });
    }
  }, [count, message, notification]);
  return null;
}

describe('toasts', () => {
  it('keeps only the newest few messages and notifications on screen', async () => {
    render(
      <Providers>
        <Burst count={TOAST_LIMIT + 3} />
      </Providers>,
    );
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const messages = [...document.querySelectorAll('.ant-message-notice')].map((n) => n.textContent);
    const notices = [...document.querySelectorAll('.ant-notification-notice')].map((n) => n.textContent);
    expect(messages).toHaveLength(TOAST_LIMIT);
    expect(notices).toHaveLength(TOAST_LIMIT);
    expect(messages.at(-1)).toContain(`Saved ${TOAST_LIMIT + 3}`);
  });
});

describe('the light and the dark theme', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    useLayoutSettings.getState().reset();
  });

  it('gives antd the dark algorithm and its tokens when the person picks dark', () => {
    const light = consoleTheme({ primary: '#1890FF', dark: false, reducedMotion: false });
    const dark = consoleTheme({ primary: '#1890FF', dark: true, reducedMotion: false });
    expect(light.algorithm).toBe(theme.defaultAlgorithm);
    expect(dark.algorithm).toBe(theme.darkAlgorithm);
    expect(theme.getDesignToken(light)).toMatchObject({ colorBgContainer: '#ffffff', colorText: 'rgba(0,0,0,0.88)' });
    expect(theme.getDesignToken(dark)).toMatchObject({ colorBgContainer: '#141414', colorText: 'rgba(255,255,255,0.85)' });
  });

  it('draws the antd context and the page dark at once, and keeps the choice with the other layout settings', async () => {
    function Surface() {
      const { token } = theme.useToken();
      return <span data-testid="surface">{token.colorBgContainer}</span>;
    }
    render(
      <ConsoleProviders>
        <Providers>
          <Surface />
        </Providers>
      </ConsoleProviders>,
    );
    expect(screen.getByTestId('surface').textContent).toBe('#ffffff');
    expect(document.documentElement.dataset.theme).toBe('light');
    await act(async () => {
      useLayoutSettings.getState().update({ contentTheme: 'dark' });
    });
    expect(screen.getByTestId('surface').textContent).toBe('#141414');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(loadLayoutSettings().contentTheme).toBe('dark');
    // following the system: this one asks for light
    const media = window.matchMedia.bind(window);
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => (query.includes('prefers-color-scheme') ? ({ ...media(query), matches: false } as MediaQueryList) : media(query)));
    await act(async () => {
      useLayoutSettings.getState().update({ contentTheme: 'system' });
    });
    expect(screen.getByTestId('surface').textContent).toBe('#ffffff');
    expect(document.documentElement.dataset.theme).toBe('light');
  });
});
