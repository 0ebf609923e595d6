import type { FloorPlan } from '@isps/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import { FloorPlanEditor } from './floor-plan-editor.tsx';
import { fractionAt, movedByKey } from './plan-geometry.ts';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
let saved: unknown[];

const plan: FloorPlan = {
  areaId: 'a1',
  areaName: 'Hall',
  image: 'floorPlan/20261203/0123456789abcdef0123456789abcdef_hall.png',
  placements: [{ kind: 'door', id: 'd1', x: 0.5, y: 0.5 }],
  items: [
    { kind: 'door', id: 'd1', name: 'Front gate' },
    { kind: 'device', id: 'v1', name: 'Controller 1' },
  ],
};

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  saved = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith('/sysArea/floorPlan')) return Response.json(ok(plan));
      if (url.pathname.endsWith('/sysArea/floorPlan/save')) {
        const body = JSON.parse(String(init?.body)) as { placements: unknown[] };
        saved.push(body);
        return Response.json(ok(body.placements, 'The floor plan is saved'));
      }
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('floor-plan markers', () => {
  it('move by 1 % of the image per arrow key (10 % with Shift) and stay on the image', () => {
    const at = { kind: 'door' as const, id: 'd1', x: 0.5, y: 0.5 };
    expect(movedByKey(at, 'ArrowRight')).toEqual({ ...at, x: 0.51 });
    expect(movedByKey(at, 'ArrowUp', true)).toEqual({ ...at, y: 0.4 });
    expect(movedByKey({ ...at, x: 0.995 }, 'ArrowRight')).toEqual({ ...at, x: 1 });
    expect(movedByKey({ ...at, y: 0.05 }, 'ArrowUp', true)).toEqual({ ...at, y: 0 });
    expect(movedByKey(at, 'Enter')).toBeNull();
    // a pointer's place is a fraction of the image's box, whatever size the image is shown at
    expect(fractionAt(150, 75, { left: 100, top: 50, width: 200, height: 100 })).toEqual({ x: 0.25, y: 0.25 });
    expect(fractionAt(90, 200, { left: 100, top: 50, width: 200, height: 100 })).toEqual({ x: 0, y: 1 });
  });

  it('are moved with the keyboard, placed from the side list with Enter, taken off with Delete, and saved as moved', async () => {
    renderInConsole(<FloorPlanEditor areaId="a1" onSaved={() => undefined} />);
    const marker = await screen.findByRole('button', { name: i18n.t('floorPlan.marker', { kind: i18n.t('floorPlan.kind.door'), name: 'Front gate' }) });
    marker.focus();
    fireEvent.keyDown(marker, { key: 'ArrowRight' });
    fireEvent.keyDown(marker, { key: 'ArrowRight' });
    fireEvent.keyDown(marker, { key: 'ArrowDown', shiftKey: true });
    await waitFor(() => expect([marker.dataset.x, marker.dataset.y]).toEqual(['0.52', '0.6']));
    expect(marker.style.left).toBe('52%');

    // the device is in the side list until it is placed; Enter puts it in the middle of the plan
    const device = screen.getByRole('button', { name: `${i18n.t('floorPlan.kind.device')} Controller 1` });
    fireEvent.keyDown(device, { key: 'Enter' });
    const deviceMarker = await screen.findByRole('button', { name: i18n.t('floorPlan.marker', { kind: i18n.t('floorPlan.kind.device'), name: 'Controller 1' }) });
    expect([deviceMarker.dataset.x, deviceMarker.dataset.y]).toEqual(['0.5', '0.5']);
    expect(screen.getByText(i18n.t('floorPlan.allPlaced'))).toBeTruthy();
    fireEvent.keyDown(deviceMarker, { key: 'Delete' });
    await waitFor(() => expect(document.querySelector('[data-marker="device:v1"]')).toBeNull());

    fireEvent.click(screen.getByTestId('floor-plan-save'));
    await waitFor(() => expect(saved).toEqual([{ areaId: 'a1', placements: [{ kind: 'door', id: 'd1', x: 0.52, y: 0.6 }] }]));
  });
});
