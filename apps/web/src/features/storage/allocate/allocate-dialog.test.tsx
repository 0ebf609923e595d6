import { cabinetEntity, type AuthItem } from '@isps/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { TEST_USER, renderInConsole } from '../../../test-providers.tsx';
import { StorageEntityScreen } from '../storage-screen.tsx';

const ok = (result: unknown, message = '') => ({ success: true, message, code: 200, result, timestamp: 1 });
const refused = (message: string) => ({ success: false, message, code: 500, result: null, timestamp: 1 });
const page = (records: unknown[]) => Response.json(ok({ records, total: records.length, size: 10, current: 1, pages: 1 }));
const REFUSAL = 'Allocation failed: you do not manage this device';

const cabinets = [
  { id: 'c1', deviceId: 'd1', deviceId_dictText: 'Hall A', cabinetNo: 3, status: 0, attribute: 2, peopleIds: '', releaseInEmergency: 0 },
  { id: 'c2', deviceId: 'd1', deviceId_dictText: 'Hall B', cabinetNo: 4, status: 1, attribute: 1, peopleIds: 'p2', peopleIds_dictText: 'Bob', releaseInEmergency: 0 },
];
const people = [
  { id: 'p1', name: 'Alice' },
  { id: 'p2', name: 'Bob' },
];

let calls: Array<{ method: string; url: URL; body: unknown }>;
let allocateAnswer: unknown;

function grant(codes: string[]) {
  useSession.getState().setPermissions([], codes.map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  localStorage.clear();
  useSession.getState().signIn('tok', TEST_USER);
  grant(['storage:cabinet:list', 'storage:cabinet:allocate']);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  calls = [];
  allocateAnswer = refused(REFUSAL);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      calls.push({ method: init?.method ?? 'GET', url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname.endsWith('/cabinet/cabinet/list')) return page(cabinets);
      if (url.pathname.endsWith('/cabinet/allocation/linkOptions')) return page(people.map((p) => ({ value: p.id, label: p.name })));
      if (url.pathname.endsWith('/cabinet/cabinet/allocateCabinet')) return Response.json(allocateAnswer);
      return page([]);
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const row = (text: string) => screen.getByText(text).closest('tr')!;
const dialog = () => screen.getByRole('dialog');
const allocations = () => calls.filter((c) => c.url.pathname.endsWith('/allocateCabinet'));
const listReads = () => calls.filter((c) => c.url.pathname.endsWith('/cabinet/cabinet/list')).length;

/** Opens the people picker of the dialog and picks `name`. */
async function pick(name: string) {
  fireEvent.mouseDown(within(dialog()).getByRole('combobox', { name: i18n.t('cabinet.allocatePeople') }));
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].find((o) => o.textContent === name);
    expect(found).toBeTruthy();
    return found!;
  });
  fireEvent.click(option);
}

describe('allocating a locker', () => {
  it('sends the cabinet and the people picked, shows a refusal as a warning keeping the dialog, then shows the success and reads the list again', async () => {
    renderInConsole(<StorageEntityScreen entity={cabinetEntity} />);
    await screen.findByText('Hall A');
    fireEvent.click(row('Hall A').querySelector('[data-command="allocate"]')!);
    await screen.findByText(i18n.t('cabinet.allocateTitle', { name: '3' }));

    // nobody picked: the form says so and nothing is sent
    fireEvent.click(within(dialog()).getByRole('button', { name: i18n.t('cabinet.allocate') }));
    await screen.findByText(i18n.t('cabinetAllocate.peopleRequired'));
    expect(allocations()).toHaveLength(0);

    await pick('Alice');
    await pick('Bob');
    fireEvent.click(within(dialog()).getByRole('button', { name: i18n.t('cabinet.allocate') }));
    await screen.findByText(REFUSAL);
    expect(document.querySelector('.ant-message-warning')).toBeTruthy();
    expect(allocations()).toEqual([expect.objectContaining({ method: 'POST', body: { id: 'c1', peopleIds: ['p1', 'p2'], expireTime: null } })]);
    // the dialog stays, with the choice, for another try
    expect(screen.getByText(i18n.t('cabinet.allocateTitle', { name: '3' }))).toBeTruthy();

    allocateAnswer = ok(null, 'Allocation succeeded');
    const before = listReads();
    fireEvent.click(within(dialog()).getByRole('button', { name: i18n.t('cabinet.allocate') }));
    await screen.findByText('Allocation succeeded');
    expect(document.querySelector('.ant-message-success')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(i18n.t('cabinet.allocateTitle', { name: '3' }))).toBeNull());
    await waitFor(() => expect(listReads()).toBeGreaterThan(before));
  });

  it('gives a one-person cabinet to one person only, starting from its holder, with the time it ends', async () => {
    allocateAnswer = ok(null, 'Allocation succeeded');
    renderInConsole(<StorageEntityScreen entity={cabinetEntity} />);
    await screen.findByText('Hall B');
    fireEvent.click(row('Hall B').querySelector('[data-command="allocate"]')!);
    await screen.findByText(i18n.t('cabinet.allocateTitle', { name: '4' }));
    expect(screen.getByText(i18n.t('cabinetAllocate.onePerson'))).toBeTruthy();
    // the holder is picked already: the other person cannot be added beside him
    fireEvent.mouseDown(within(dialog()).getByRole('combobox', { name: i18n.t('cabinet.allocatePeople') }));
    await waitFor(() => {
      const alice = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].find((o) => o.textContent === 'Alice');
      expect(alice?.className).toContain('ant-select-item-option-disabled');
    });

    const until = within(dialog()).getByRole('textbox', { name: i18n.t('cabinet.allocateExpire') });
    fireEvent.mouseDown(until);
    fireEvent.focus(until);
    fireEvent.change(until, { target: { value: '2030-01-31 18:00:00' } });
    fireEvent.keyDown(until, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.blur(until);
    fireEvent.click(within(dialog()).getByRole('button', { name: i18n.t('cabinet.allocate') }));
    await screen.findByText('Allocation succeeded');
    expect(allocations().at(-1)?.body).toEqual({ id: 'c2', peopleIds: ['p2'], expireTime: '2030-01-31 18:00:00' });
  });

  it('is offered to holders of the allocate permission only', async () => {
    grant(['storage:cabinet:list']);
    renderInConsole(<StorageEntityScreen entity={cabinetEntity} />);
    await screen.findByText('Hall A');
    expect(document.querySelector('[data-command="allocate"]')).toBeNull();
  });
});
