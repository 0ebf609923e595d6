import { DoorState, type AuthItem, type DoorFloorPlan, type DoorStatusRow } from '@isps/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import { DoorPlanView } from './door-plan-view.tsx';

const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'viewer', realname: 'Viewer', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const perm = (action: string): AuthItem => ({ action, describe: '', type: '1' });
const door = (id: string, doorName: string, state: DoorState, deviceOnline = true): DoorStatusRow => ({ id, doorName, doorNo: 1, deviceId: `dev-${id}`, deviceName: `Controller ${id}`, deviceOnline, areaId: 'a1', state, stateTime: null });
const plans: DoorFloorPlan[] = [{ areaId: 'a1', areaName: 'Hall', image: 'floorPlan/20261203/0123456789abcdef0123456789abcdef_hall.png', doors: [{ id: 'd1', x: 0.2, y: 0.3 }, { id: 'd2', x: 0.7, y: 0.6 }, { id: 'd3', x: 0.5, y: 0.5 }] }];
const doors = [door('d1', 'Front gate', DoorState.open), door('d2', 'Store room', DoorState.alarm), door('d3', 'Back door', DoorState.closed, false)];

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/sysDoor/floorPlans')) return Response.json(ok(plans));
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const marker = (id: string) => document.querySelector(`[data-plan-door="${id}"]`) as HTMLElement;

describe('the door status plan', () => {
  it('shows each placed door where it was placed, with its state in words as well as colour (offline for a device away)', async () => {
    useSession.getState().setPermissions([], [perm('device:doorStatus:view')], []);
    renderInConsole(<DoorPlanView doors={doors} refresh={() => undefined} />);
    await waitFor(() => expect(marker('d1')).toBeTruthy());
    expect([marker('d1').dataset.state, marker('d2').dataset.state, marker('d3').dataset.state]).toEqual(['open', 'alarm', 'offline']);
    expect(marker('d1').textContent).toContain(i18n.t('door.state.open'));
    expect(marker('d2').textContent).toContain(i18n.t('door.state.alarm'));
    expect(marker('d3').textContent).toContain(i18n.t('floorPlan.offline'));
    expect([marker('d1').style.left, marker('d1').style.top]).toEqual(['20%', '30%']);
  });

  it('offers the remote opening disabled, saying why, to a viewer without device:door:open, and enabled to a holder', async () => {
    useSession.getState().setPermissions([], [perm('device:doorStatus:view')], []);
    const view = renderInConsole(<DoorPlanView doors={doors} refresh={() => undefined} />);
    await waitFor(() => expect(marker('d1')).toBeTruthy());
    fireEvent.click(marker('d1'));
    const popover = await screen.findByTestId('plan-door-popover');
    const button = popover.querySelector('button[data-command="open"]') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(popover.textContent).toContain(i18n.t('floorPlan.openNeedsPermission'));
    view.unmount();

    useSession.getState().setPermissions([], [perm('device:doorStatus:view'), perm('device:door:open')], []);
    renderInConsole(<DoorPlanView doors={doors} refresh={() => undefined} />);
    await waitFor(() => expect(marker('d1')).toBeTruthy());
    fireEvent.click(marker('d1'));
    const allowed = await screen.findByTestId('plan-door-popover');
    expect((allowed.querySelector('button[data-command="open"]') as HTMLButtonElement).disabled).toBe(false);
  });
});
