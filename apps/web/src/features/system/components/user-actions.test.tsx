import { UserStatus, userEntity } from '@isps/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import { userExtension } from './user-actions.tsx';

let puts: { url: string; body: unknown }[];
beforeEach(() => {
  puts = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      puts.push({ url, body: JSON.parse(String(init?.body ?? 'null')) });
      return Response.json({ success: true, code: 200, message: '已审核通过 1 个账号', result: { count: 1 }, timestamp: 1 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.setState({ auth: [], allAuth: [] });
});

function renderActions(status: number, codes: string[]) {
  useSession.setState({ auth: codes.map((action) => ({ action, type: '1', describe: action })), allAuth: [] });
  const refresh = vi.fn();
  const RowActions = userExtension.RowActions!;
  renderInConsole(<RowActions entity={userEntity} row={{ id: 'u1', username: 'stranger', status }} refresh={refresh} />);
  return refresh;
}

describe('approving a self-registered account in the user list', () => {
  it('offers Approve for an account awaiting approval, to a holder of the freeze permission, and approves it', async () => {
    const refresh = renderActions(UserStatus.awaitingApproval, ['system:user:frozen']);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /更多/ }));
    });
    await act(async () => {
      fireEvent.click(await screen.findByText('审核通过'));
    });
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ url: expect.stringContaining('/sys/user/frozenBatch'), body: { ids: 'u1', status: UserStatus.normal } });
    await waitFor(() => expect(refresh).toHaveBeenCalled());
  });

  it('offers no Approve for an account that awaits nothing', async () => {
    renderActions(UserStatus.normal, ['system:user:frozen']);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /更多/ }));
    });
    expect(await screen.findByText('冻结')).toBeTruthy();
    expect(screen.queryByText('审核通过')).toBeNull();
  });
});
