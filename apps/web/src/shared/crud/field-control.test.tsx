import { ApiPath, DeviceRolePath, QuartzJobPath, crudPath, dataSourceEntity, deviceEntity, deviceRoleEntity, quartzJobEntity, userEntity, type AuthItem, type EntityDeclaration } from '@isps/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../session/index.ts';
import { renderInConsole } from '../../test-providers.tsx';
import { FormControl, SearchControl } from './field-control.tsx';

const userInfo = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const ok = (result: unknown) => ({ success: true, message: '', code: 200, result, timestamp: 1 });

let asked: string[];

beforeEach(() => {
  useSession.getState().signIn('tok', userInfo);
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      asked.push(url.pathname);
      if (url.pathname.endsWith(QuartzJobPath.handlers)) return Response.json(ok([{ value: 'purgeOldLogs', text: '清理旧日志' }]));
      if (url.pathname.endsWith(ApiPath.dataSourceKinds)) return Response.json(ok([{ value: 'mariadb', text: 'MariaDB', driver: 'mysql2' }]));
      if (url.pathname.endsWith(crudPath(deviceRoleEntity, 'linkOptions')) && url.searchParams.get('field') === 'doorIds') {
        const records = [['d1', 'North door'], ['d2', 'South door'], ['d3', 'East door']].map(([value, label]) => ({ value, label }));
        return Response.json(ok({ records, total: 3, size: 3, current: 1, pages: 1 }));
      }
      if (url.pathname.endsWith(DeviceRolePath.bindable)) return Response.json(ok(url.searchParams.get('target') === 'door' ? ['d1'] : null));
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

async function offered(entity: EntityDeclaration, name: string): Promise<string[]> {
  renderInConsole(<FormControl id="picked" entity={entity} name={name} mode="add" />);
  const box = screen.getByRole('combobox');
  await waitFor(() => expect(asked.some((path) => path.endsWith(String(entity.fields[name]?.optionsFrom)))).toBe(true));
  fireEvent.mouseDown(box);
  return waitFor(() => {
    const texts = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].map((o) => o.textContent ?? '');
    expect(texts.length).toBeGreaterThan(0);
    return texts;
  });
}

describe('a form field whose choices the server offers', () => {
  it('picks a job handler among the ones the server runs, named as the server names them', async () => {
    expect(await offered(quartzJobEntity, 'jobClassName')).toEqual(['清理旧日志']);
  });

  it('picks a database kind among the ones the server connects to', async () => {
    expect(await offered(dataSourceEntity, 'dbType')).toEqual(['MariaDB']);
  });
});

describe('a date field of a form', () => {
  it('takes a typed date with Enter without submitting the form around it', () => {
    renderInConsole(<FormControl id="birthday" entity={userEntity} name="birthday" mode="add" />);
    const input = document.getElementById('birthday')!;
    fireEvent.change(input, { target: { value: '1990-05-17' } });
    // false: the default action (the browser's implicit submission of the form) was prevented
    expect(fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' })).toBe(false);
  });
});

describe('a picker of what one may grant', () => {
  it("offers a device role's editor only the doors his own roles cover, and keeps a door already bound shown", async () => {
    renderInConsole(<FormControl id="doors" entity={deviceRoleEntity} name="doorIds" mode="edit" value={['d3']} />);
    await waitFor(() => expect(asked.some((path) => path.endsWith(DeviceRolePath.bindable))).toBe(true));
    fireEvent.mouseDown(screen.getByRole('combobox'));
    await waitFor(() => {
      const texts = [...document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].map((o) => o.textContent);
      expect(texts).toEqual(['North door', 'East door']);
    });
  });
});

describe("the search of a list by a field that names another entity's rows", () => {
  const grant = (codes: string[]) => useSession.getState().setPermissions([], codes.map((action): AuthItem => ({ action, describe: action, type: '1' })), []);
  const devices = { records: [{ id: 'v1', deviceName: 'Gate' }], total: 1, size: 1000, current: 1, pages: 1 };

  it("uses the form's choices for those who may edit the rows", async () => {
    grant(['device:deviceRole:list', 'device:deviceRole:edit']);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const url = new URL(input, 'http://console.test');
        asked.push(`${url.pathname}?${url.searchParams.toString()}`);
        return Response.json(ok(url.pathname.endsWith('/linkOptions') ? { records: [{ value: 'v1', label: 'Gate' }], total: 1, size: 1000, current: 1, pages: 1 } : devices));
      }),
    );
    renderInConsole(<SearchControl id="searched" entity={deviceRoleEntity} name="deviceIds" match="exact" />);
    await waitFor(() => expect(asked.some((path) => path.startsWith(`/api${crudPath(deviceRoleEntity, 'linkOptions')}?`) && path.includes('field=deviceIds'))).toBe(true));
    expect(asked.some((path) => path.includes(crudPath(deviceEntity, 'list')))).toBe(false);
  });

  it('reads the linked list, as today, for those who may only read the rows', async () => {
    grant(['device:deviceRole:list']);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const url = new URL(input, 'http://console.test');
        asked.push(url.pathname);
        return Response.json(ok(devices));
      }),
    );
    renderInConsole(<SearchControl id="searched" entity={deviceRoleEntity} name="deviceIds" match="exact" />);
    await waitFor(() => expect(asked.some((path) => path.endsWith(crudPath(deviceEntity, 'list')))).toBe(true));
    expect(asked.some((path) => path.endsWith('/linkOptions'))).toBe(false);
  });
});
