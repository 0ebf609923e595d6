import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../../shared/i18n/index.ts';
import { AnnouncementDetailModal, type NoticeDetail } from './announcement-detail-modal.tsx';

const notice = (extra: Partial<NoticeDetail>): NoticeDetail => ({ id: 'a1', titile: 'Door check', sender: 'admin', sendTime: null, msgContent: '<p>See the doors</p>', openType: null, openPage: null, readFlag: 0, ...extra });

function renderAt(detail: NoticeDetail) {
  let closed = 0;
  const router = createMemoryRouter(
    [
      { path: '/home', element: <AnnouncementDetailModal notice={detail} onClose={() => closed++} /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/home'] },
  );
  render(
    <I18nextProvider i18n={i18n}>
      <ConfigProvider>
        <App>
          <RouterProvider router={router} />
        </App>
      </ConfigProvider>
    </I18nextProvider>,
  );
  return { router, closed: () => closed };
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

describe('the announcement detail dialog', () => {
  it('opens the page a component notice names (openType component, openPage)', async () => {
    const { router, closed } = renderAt(notice({ openType: 'component', openPage: '/device/list', readFlag: 1 }));
    fireEvent.click(await screen.findByRole('button', { name: 'Open page' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/device/list'));
    expect(closed()).toBe(1);
  });

  it('offers no page for a notice without one, and the handle button only for an unread url notice', async () => {
    renderAt(notice({ openType: 'component', openPage: null }));
    await screen.findByText('Door check');
    expect(screen.queryByRole('button', { name: 'Open page' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Handle' })).toBeNull();
  });
});
