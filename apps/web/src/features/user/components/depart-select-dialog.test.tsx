import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback, type Feedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { DepartSelectDialog } from './depart-select-dialog.tsx';

const userInfo = { id: '1', username: 'alice', realname: 'Alice', nickname: null, orgCode: 'A01', avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });

let departs: unknown;
let posted: unknown[];
let notify: ReturnType<typeof vi.fn<Feedback['notify']>>;

beforeEach(() => {
  localStorage.clear();
  useSession.getState().signIn('tok', userInfo);
  posted = [];
  notify = vi.fn();
  setFeedback({ notify, modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url.includes('getCurrentUserDeparts')) return Response.json(ok(departs));
      posted.push(JSON.parse(String(init.body)));
      return Response.json(ok({ userInfo: { ...userInfo, orgCode: 'A01A02' } }, '已切换当前部门'));
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function renderDialog(onClose = vi.fn()) {
  render(
    <I18nextProvider i18n={i18n}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <QueryClientProvider client={new QueryClient()}>
          <DepartSelectDialog open onClose={onClose} />
        </QueryClientProvider>
      </ConfigProvider>
    </I18nextProvider>,
  );
  return onClose;
}

describe('group switch dialog', () => {
  it('preselects the current group and switches to the chosen one', async () => {
    departs = {
      list: [
        { id: '1', orgCode: 'A01', departName: 'Headquarters', parentId: null },
        { id: '2', orgCode: 'A01A02', departName: 'Security', parentId: '1' },
      ],
      orgCode: 'A01',
    };
    const onClose = renderDialog();
    expect(await screen.findByText('您隶属于多部门，请选择当前所在部门')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Headquarters')).toBeTruthy());
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '部门' }));
    fireEvent.click(await screen.findByTitle('Security'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '确定' }));
    });
    await waitFor(() => expect(posted).toEqual([{ orgCode: 'A01A02', username: 'alice' }]));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(useSession.getState().userInfo?.orgCode).toBe('A01A02');
  });

  it('warns when the user belongs to no group', async () => {
    departs = { list: [], orgCode: null };
    const onClose = renderDialog();
    await waitFor(() => expect(notify).toHaveBeenCalledWith('warning', '提示', '您尚未设置部门信息', 4));
    expect(onClose).toHaveBeenCalled();
    expect(posted).toEqual([]);
  });
});
