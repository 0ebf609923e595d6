import { permissionCode, visitEntity, VisitorDeskPath, visitorEntity, type AuthItem, type DeskLookup } from '@isps/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Profiler } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import { DeskDialog } from './desk-dialog.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const refused = (message: string) => ({ success: false, message, code: 500, result: null, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const lookup: DeskLookup = {
  visitor: { id: 'v1', name: 'Chen Jing', idCardMasked: '**************0074', phone: '13911112222', cardNoMasked: null, palmLeft: 0, palmRight: 0, status: 1 },
  visits: [{ id: 'visit-1', hostName: 'Li Lei', startTime: '2026-12-03 09:00:00', endTime: '2026-12-03 11:00:00', doors: ['Lobby gate'] }],
};
let calls: Array<{ path: string; body: unknown }>;
let statusAsks = 0;
/** commits of the dialog's tree: a step that redraws itself in a loop keeps adding to them */
let commits = 0;

beforeEach(async () => {
  await i18n.changeLanguage('en-US');
  localStorage.clear();
  useSession.getState().signIn('tok', userInfo);
  const auth: AuthItem[] = [permissionCode(visitEntity, 'desk'), permissionCode(visitorEntity, 'issueCard'), permissionCode(visitorEntity, 'enroll')].map((action) => ({ action, describe: action, type: '1' }));
  useSession.getState().setPermissions([], auth, []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  calls = [];
  statusAsks = 0;
  commits = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      calls.push({ path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname.endsWith(VisitorDeskPath.find)) return Response.json(url.searchParams.get('idCard') === 'NOBODY' ? refused('No visitor with this ID card') : ok(lookup));
      if (url.pathname.endsWith(VisitorDeskPath.enroll)) return Response.json(ok({ id: 'e1', peopleId: 'v1', hand: 'left', deviceId: 'd1', deviceName: 'Desk reader', status: 'waiting', reason: null }));
      if (url.pathname.endsWith(VisitorDeskPath.enrollStatus)) {
        statusAsks += 1;
        return Response.json(ok({ id: 'e1', peopleId: 'v1', hand: 'left', deviceId: 'd1', deviceName: 'Desk reader', status: 'enrolled', reason: null }));
      }
      if (url.pathname.endsWith(VisitorDeskPath.issueCard)) return Response.json(ok({ cardNoMasked: '********4711' }, 'Card issued'));
      return Response.json(ok(null));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderDesk() {
  const router = createMemoryRouter([
    {
      path: '*',
      element: (
        <Profiler id="desk" onRender={() => void (commits += 1)}>
          <DeskDialog visitId="visit-1" onClose={() => undefined} />
        </Profiler>
      ),
    },
  ]);
  renderInConsole(<RouterProvider router={router} />);
}
const button = (key: string) => screen.getByText(i18n.t(key), { selector: 'button span' }).closest('button')!;

describe('the arrivals desk dialog', () => {
  it('says when no visitor has the typed number, then finds the visitor and his visit', async () => {
    renderDesk();
    const field = await screen.findByLabelText(i18n.t('visitorDesk.idCard'));
    fireEvent.change(field, { target: { value: 'NOBODY' } });
    fireEvent.click(button('visitorDesk.find'));
    await screen.findByText('No visitor with this ID card');
    fireEvent.change(field, { target: { value: '110105198804020074' } });
    fireEvent.click(button('visitorDesk.find'));
    await screen.findByText('Chen Jing');
    expect(screen.getByText(i18n.t('visitorDesk.visitLine', { window: '2026-12-03 09:00 – 11:00', host: 'Li Lei' }), { exact: false })).toBeTruthy();
    expect((screen.getByRole('radio') as HTMLInputElement).checked).toBe(true);
  });

  it('enrols a palm once and shows it registered, then issues a card shown masked', async () => {
    renderDesk();
    fireEvent.change(await screen.findByLabelText(i18n.t('visitorDesk.idCard')), { target: { value: '110105198804020074' } });
    fireEvent.click(button('visitorDesk.find'));
    await screen.findByText('Chen Jing');
    fireEvent.click(button('visitorDesk.next'));
    fireEvent.click(screen.getByText(i18n.t('visitorDesk.enrollPalm')));
    fireEvent.click(button('people.enrollStart'));
    await screen.findByText(i18n.t('people.enrollDone', { hand: i18n.t('people.hand.left') }));
    // the outcome is taken once: no loop of updates and status calls
    await new Promise((resolve) => setTimeout(resolve, 100));
    const settled = commits;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(commits - settled).toBeLessThanOrEqual(1);
    expect(statusAsks).toBeLessThanOrEqual(2);
    expect(calls.filter((c) => c.path.endsWith(VisitorDeskPath.enroll))).toHaveLength(1);

    fireEvent.click(screen.getByText(i18n.t('visitorDesk.issueCard')));
    fireEvent.change(screen.getByLabelText(i18n.t('visitorDesk.cardNo')), { target: { value: 'DESKCARD4711' } });
    fireEvent.click(button('visitorDesk.issue'));
    await screen.findByText(i18n.t('visitorDesk.cardIssued', { masked: '********4711' }));
    expect(calls.find((c) => c.path.endsWith(VisitorDeskPath.issueCard))?.body).toEqual({ visitorId: 'v1', cardNo: 'DESKCARD4711' });
    expect((screen.getByLabelText(i18n.t('visitorDesk.cardNo')) as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(button('visitorDesk.showPass').disabled).toBe(false));
  });
});
