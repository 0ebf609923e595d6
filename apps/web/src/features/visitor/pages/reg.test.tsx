import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import VisitorRegisterPage from './reg.tsx';

let bodies: Record<string, unknown>[];
beforeEach(() => {
  bodies = [];
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)));
      return Response.json({ success: true, code: 200, message: '', result: {}, timestamp: 1 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('visitor registration', () => {
  it('checks the ID number by the ID type chosen and sends the type', async () => {
    const router = createMemoryRouter([{ path: '/vistor/reg', element: <VisitorRegisterPage /> }, { path: '*', element: <p>login</p> }], { initialEntries: ['/vistor/reg'] });
    renderInConsole(<RouterProvider router={router} />);
    fireEvent.change(screen.getByRole('textbox', { name: '姓名' }), { target: { value: 'Traveller' } });
    fireEvent.change(screen.getByRole('textbox', { name: '身份证号' }), { target: { value: 'P12345678' } });
    expect(await screen.findByText('请输入合法的身份证号')).toBeTruthy();
    await act(async () => {
      fireEvent.mouseDown(screen.getByRole('combobox', { name: '证件类型' }));
    });
    await act(async () => {
      fireEvent.click(await screen.findByText('护照'));
    });
    await waitFor(() => expect(screen.queryByText('请输入合法的身份证号')).toBeNull());
    fireEvent.change(screen.getByRole('textbox', { name: '手机号' }), { target: { value: '13712340000' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: '246810' } });
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: '246810' } });
    await act(async () => {
      fireEvent.submit(screen.getByRole('textbox', { name: '姓名' }).closest('form')!);
    });
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ idType: '2', idCard: 'P12345678' });
  });
});
