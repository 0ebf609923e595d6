import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import ApiKeyPage from '../pages/api-key.tsx';

const SECRET = 'isps_0123456789abcdef.Sh0wnOnceSh0wnOnceSh0wnOnceSh0wnOnceSh0wnO';
const row = { id: 'k1', name: 'erp', prefix: 'isps_0123456789abcdef', tenantId: 't1', tenantName: 'Tenant One', permCodes: ['system:position:list'], permCount: 1, expiresAt: '2027-03-01 23:59:59', revokedAt: null, validUntil: null, rotatedFrom: null, status: 'active', lastUsedAt: null, lastUsedIp: null, createBy: 'admin', createTime: '2026-12-01 10:00:00' };

let calls: { method: string; url: string; body: unknown }[];
let listed: unknown[];
beforeEach(() => {
  calls = [];
  listed = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : null });
      const ok = (result: unknown, message = 'ok') => Response.json({ success: true, code: 200, message, result, timestamp: 1 });
      if (url.includes('/sys/tenant/queryList')) return ok([{ id: 't1', name: 'Tenant One' }]);
      if (url.includes('/sys/apiKey/list')) return ok({ records: listed, total: listed.length, size: 10, current: 1, pages: 1 });
      if (url.includes('/sys/apiKey/add')) {
        listed = [row];
        return ok({ ...row, secret: SECRET }, 'created');
      }
      return ok(null);
    }),
  );
  useSession.setState({ auth: ['system:apiKey:list', 'system:apiKey:add', 'system:position:list', 'system:position:add'].map((action) => ({ action, type: '1', describe: action })), allAuth: [] });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.setState({ auth: [], allAuth: [] });
});

describe('creating an API key', () => {
  it('offers only held codes, sends the chosen ones, shows the key once and never again', async () => {
    renderInConsole(<ApiKeyPage />);
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: i18n.t('apiKey.create') }));
    });
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(dialog.querySelector('input#name')!, { target: { value: 'erp' } });
    // the one tenant the caller may give is chosen for him
    await waitFor(() => expect(dialog.textContent).toContain('Tenant One'));
    // the tree holds the caller's own codes only: checking the system area checks them all
    const boxes = dialog.querySelectorAll('.ant-tree-checkbox');
    expect(boxes).toHaveLength(1);
    await act(async () => {
      fireEvent.click(boxes[0]!);
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: i18n.t('apiKey.createOk') }));
    });
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const sent = calls.find((c) => c.method === 'POST')!;
    expect(sent.url).toContain('/sys/apiKey/add');
    expect(sent.body).toMatchObject({ name: 'erp', tenantId: 't1' });
    expect((sent.body as { permCodes: string[] }).permCodes.sort()).toEqual(['system:apiKey:add', 'system:apiKey:list', 'system:position:add', 'system:position:list']);
    expect((sent.body as { expiresAt: string }).expiresAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // shown once, with the warning, ready to copy
    expect(await screen.findByTestId('api-key-secret')).toHaveProperty('textContent', expect.stringContaining(SECRET));
    expect(screen.getByText(i18n.t('apiKey.secretOnce'))).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: i18n.t('apiKey.secretDone') }));
    });
    await waitFor(() => expect(screen.queryByTestId('api-key-secret')).toBeNull());
    // the list shows the new key by its prefix, never its secret
    await waitFor(() => expect(screen.getAllByText('isps_0123456789abcdef').length).toBeGreaterThan(0));
    expect(document.body.textContent).not.toContain(SECRET);
  });
});
