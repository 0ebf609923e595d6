import { ImportJobState, RealtimeCmd, importJobPath, positionEntity, type ImportJob } from '@isps/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { emitAppEvent } from '../realtime/index.ts';
import { renderInConsole, signInHolding } from '../../test-providers.tsx';
import { CrudScreen } from './crud-screen.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);
const job = (over: Partial<ImportJob> = {}): ImportJob => ({ jobId: 'job-1', state: ImportJobState.running, total: 300, done: 0, added: 0, failed: 0, rows: [], message: 'Importing', ...over });

let calls: Array<{ method: string; path: string; body: unknown }>;
/** what the status call answers */
let current: ImportJob;

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  localStorage.clear();
  signInHolding(positionEntity);
  calls = [];
  current = job();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      const method = init?.method ?? 'GET';
      calls.push({ method, path: url.pathname, body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body });
      if (url.pathname.endsWith('/sys/position/list')) return Response.json(ok({ records: [], total: 0, size: 10, current: 1, pages: 0 }));
      if (url.pathname.includes('/sys/dict/getDictItems/')) return Response.json(ok([]));
      if (url.pathname.endsWith('/sys/position/importExcel')) return Response.json(ok(job(), 'Import started: 300 rows are being added in the background'));
      if (url.pathname.endsWith(importJobPath(positionEntity, 'refused'))) {
        calls.push({ method, path: `${url.pathname}?${url.searchParams.toString()}`, body: null });
        return new Response(new Blob(['xlsx']), { headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'content-disposition': 'attachment; filename="refused.xlsx"' } });
      }
      if (url.pathname.endsWith(importJobPath(positionEntity, 'status'))) return Response.json(ok(current, current.message));
      if (url.pathname.endsWith(importJobPath(positionEntity, 'cancel'))) {
        current = job({ state: ImportJobState.cancelled, done: 120, added: 100, failed: 20, rows: [{ row: 2, success: false, message: 'Position code already exists' }], message: 'Import cancelled after 120 of 300 rows' });
        return Response.json(ok(current, current.message));
      }
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

async function startImport() {
  renderInConsole(<CrudScreen entity={positionEntity} />);
  await screen.findByText(t('crud.import'));
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [new File(['x'], 'positions.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })] } });
  return screen.findByRole('dialog', { name: t('crud.importProgressTitle', { entity: t(positionEntity.title) }) });
}

describe('import progress', () => {
  it('shows the pushed counts on a bar, and a cancel keeps the stored rows and shows why the job ended', async () => {
    const dialog = await startImport();
    expect(within(dialog).getByText(t('crud.importProgress', { done: 0, total: 300 }))).toBeTruthy();
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.importJob, msgId: 'job-1', data: { jobId: 'job-1', entity: 'position', state: ImportJobState.running, total: 300, done: 150, added: 140, failed: 10 } }));
    // another job's push changes nothing
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.importJob, msgId: 'job-2', data: { jobId: 'job-2', entity: 'position', state: ImportJobState.running, total: 9, done: 9, added: 9, failed: 0 } }));
    await within(dialog).findByText(t('crud.importProgress', { done: 150, total: 300 }));
    expect(within(dialog).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    expect(within(dialog).getByText('140')).toBeTruthy();
    expect(within(dialog).getByText('10')).toBeTruthy();

    fireEvent.click(within(dialog).getByText(t('crud.importCancel')).closest('button')!);
    const report = await screen.findByRole('dialog', { name: t('crud.importTitle') });
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ path: expect.stringContaining(importJobPath(positionEntity, 'cancel')), body: { jobId: 'job-1' } });
    expect(within(report).getByText('Import cancelled after 120 of 300 rows')).toBeTruthy();
    expect(within(report).getByText(t('crud.importSummary', { count: 120, total: 120, added: 100, failed: 20 }))).toBeTruthy();
    // the refused rows are listed with their reasons; no Cancel beside Close
    expect(within(report).getByText('Position code already exists')).toBeTruthy();
    expect(within(report).queryByText(t('common.cancel'))).toBeNull();
    expect(screen.queryByRole('dialog', { name: t('crud.importProgressTitle', { entity: t(positionEntity.title) }) })).toBeNull();

    // the refused rows download as a spreadsheet of this job, to correct and import again
    const saved = vi.fn(() => 'blob:refused');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: saved, revokeObjectURL: vi.fn() }));
    fireEvent.click(within(report).getByRole('button', { name: new RegExp(t('crud.importRefusedDownload')) }));
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(calls.some((c) => c.method === 'GET' && c.path.includes(`${importJobPath(positionEntity, 'refused')}?jobId=job-1&`))).toBe(true);
  });

  it('hands the finished job on as the report once the channel says it ended', async () => {
    await startImport();
    current = job({ state: ImportJobState.done, done: 300, added: 300, failed: 0, rows: [{ row: 2, success: true, id: 'p1' }], message: 'Import finished' });
    act(() => emitAppEvent('realtimeMessage', { cmd: RealtimeCmd.importJob, msgId: 'job-1', data: { jobId: 'job-1', entity: 'position', state: ImportJobState.done, total: 300, done: 300, added: 300, failed: 0 } }));
    const report = await screen.findByRole('dialog', { name: t('crud.importTitle') });
    expect(within(report).getByText(t('crud.importSummary', { count: 300, total: 300, added: 300, failed: 0 }))).toBeTruthy();
    // a finished job shows no warning, and the list is read again
    expect(within(report).queryByText('Import finished')).toBeNull();
    // nothing refused, nothing to download
    expect(within(report).queryByText(t('crud.importRefusedDownload'))).toBeNull();
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/sys/position/list')).length).toBeGreaterThan(1));
  });
});
