import { positionEntity } from '@isps/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { Button, Modal } from 'antd';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { renderInConsole, signInHolding } from '../../test-providers.tsx';
import { resizeWindow } from '../../test-setup.ts';
import { CrudScreen, type CrudExtension } from './crud-screen.tsx';
import { useRowState } from './row-state.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const rows = [
  { id: 'a', code: 'P-01', name: 'Clerk', postRank: '1' },
  { id: 'b', code: 'P-02', name: 'Boss', postRank: '3' },
];
const desktopWidth = window.innerWidth;

/** A row action that opens a dialog about its row, its open state kept by the screen. */
const extension: CrudExtension = {
  RowActions: ({ row }) => {
    const [open, setOpen] = useRowState(row.id, 'details', false);
    return (
      <>
        <Button size="small" onClick={() => setOpen(true)}>
          Progress of {String(row.name)}
        </Button>
        {open ? (
          <Modal open title={`Progress: ${String(row.name)}`} onCancel={() => setOpen(false)} footer={null}>
            follows {String(row.code)}
          </Modal>
        ) : null}
      </>
    );
  },
};

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});
beforeEach(() => {
  signInHolding(positionEntity);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/sys/position/list')) return Response.json(ok({ records: rows, total: 2, size: 10, current: 1, pages: 1 }));
      return Response.json(ok([]));
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  resizeWindow(desktopWidth);
});

describe("a row action's dialog", () => {
  it('stays open, on its row, when the list turns from a table into cards and back', async () => {
    renderInConsole(<CrudScreen entity={positionEntity} extension={extension} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Progress of Boss' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Progress: Boss')).toBeTruthy();
    expect(within(dialog).getByText('follows P-02')).toBeTruthy();
    expect(document.querySelector('table')).not.toBeNull();

    // the window narrows to a phone's: the rows are cards now, drawn anew, and the dialog is still there
    act(() => resizeWindow(375));
    await screen.findByTestId('crud-cards');
    expect(document.querySelector('table')).toBeNull();
    expect(within(screen.getByRole('dialog')).getByText('follows P-02')).toBeTruthy();
    expect(screen.queryByText('follows P-01')).toBeNull();

    act(() => resizeWindow(desktopWidth));
    await vi.waitFor(() => expect(document.querySelector('table')).not.toBeNull());
    expect(within(screen.getByRole('dialog')).getByText('follows P-02')).toBeTruthy();
  });
});
