import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback, type Feedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { ChangePasswordDialog } from './change-password-dialog.tsx';

const userInfo = { id: '1', username: 'admin', realname: 'Administrator', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: true };

let calls: { url: string; body: unknown }[];
let answer: unknown;
let notify: ReturnType<typeof vi.fn<Feedback['notify']>>;

beforeEach(() => {
  localStorage.clear();
  useSession.getState().signIn('tok', userInfo);
  calls = [];
  notify = vi.fn();
  setFeedback({ notify, modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, body: init.body ? JSON.parse(String(init.body)) : null });
      return Response.json(url.includes('updatePassword') ? answer : { success: true, message: '', code: 200, result: null, timestamp: 1 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function renderDialog() {
  const router = createMemoryRouter(
    [
      { path: '/dashboard/analysis', element: <ChangePasswordDialog open forced /> },
      { path: '/user/login', element: <p>login</p> },
    ],
    { initialEntries: ['/dashboard/analysis'] },
  );
  render(
    <I18nextProvider i18n={i18n}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <QueryClientProvider client={new QueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ConfigProvider>
    </I18nextProvider>,
  );
  return router;
}

async function fill(oldPassword: string, password: string, confirm: string) {
  fireEvent.change(screen.getByLabelText('旧密码'), { target: { value: oldPassword } });
  fireEvent.change(screen.getByLabelText('新密码'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('确认新密码'), { target: { value: confirm } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
  });
}

describe('change password dialog', () => {
  it('cannot be dismissed while an initial password must be replaced', () => {
    renderDialog();
    expect(screen.queryByRole('button', { name: /close|关闭/i })).toBeNull();
    expect(screen.getByText('请先修改初始密码再继续。')).toBeTruthy();
  });

  it('checks required, strength, equality and difference from the old password', async () => {
    renderDialog();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '确定' }));
    });
    expect(await screen.findByText('请输入旧密码')).toBeTruthy();
    expect(screen.getByText('请输入新密码')).toBeTruthy();
    await fill('Old#Pass1', 'weakpass', 'other');
    expect(await screen.findByText('密码至少 8 位，且须包含大小写字母、数字和特殊符号')).toBeTruthy();
    expect(screen.getByText('两次输入的密码不一致')).toBeTruthy();
    await fill('Old#Pass1', 'Old#Pass1', 'Old#Pass1');
    expect(await screen.findByText('新密码不能与旧密码相同')).toBeTruthy();
    expect(calls.filter((c) => c.url.includes('updatePassword'))).toEqual([]);
  });

  it('on success clears the session and returns to the login page', async () => {
    answer = { success: true, message: '密码修改成功', code: 200, result: null, timestamp: 1 };
    const router = renderDialog();
    await fill('Old#Pass1', 'New#Pass22', 'New#Pass22');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(calls[0]).toEqual({
      url: '/api/sys/user/updatePassword',
      body: { username: 'admin', oldpassword: 'Old#Pass1', password: 'New#Pass22', confirmpassword: 'New#Pass22' },
    });
    expect(notify).toHaveBeenCalledWith('success', '密码修改成功', '请使用新密码重新登录。', 4);
    expect(useSession.getState().token).toBeNull();
    expect(localStorage.getItem('pro__Access-Token')).toBeNull();
  });

  it('keeps the dialog and warns with the server message on a refusal', async () => {
    answer = { success: false, message: '旧密码输入错误', code: 500, result: null, timestamp: 1 };
    const router = renderDialog();
    await fill('Wrong#Pass1', 'New#Pass22', 'New#Pass22');
    await waitFor(() => expect(notify).toHaveBeenCalledWith('warning', '密码修改失败', '旧密码输入错误', 4));
    expect(router.state.location.pathname).toBe('/dashboard/analysis');
    expect(useSession.getState().token).toBe('tok');
  });
});
