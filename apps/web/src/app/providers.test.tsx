import { act, render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { AntdProviders as Providers, TOAST_LIMIT } from '../shared/ui/antd-providers.tsx';

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
