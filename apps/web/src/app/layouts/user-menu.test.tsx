import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../shared/i18n/index.ts';
import { useSession } from '../../shared/session/index.ts';
import { renderInConsole } from '../../test-providers.tsx';
import { UserMenu } from './user-menu.tsx';

const userInfo = { id: '1', username: 'admin', realname: '管理员', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };
const noop = () => undefined;
const menu = () =>
  renderInConsole(
    <MemoryRouter>
      <UserMenu onSettings={noop} onChangePassword={noop} onSwitchDepart={noop} onTwoFactor={noop} compact={false} />
    </MemoryRouter>,
  );

describe('the header greeting', () => {
  beforeEach(() => localStorage.clear());
  afterAll(() => i18n.changeLanguage('en-US'));

  it('names the seeded administrator in the language of now, whatever the language of the sign-in', async () => {
    // signed in in Chinese, then switched to English
    useSession.getState().signIn('tok', userInfo);
    await i18n.changeLanguage('en-US');
    menu();
    expect((await screen.findByRole('button', { name: 'User menu' })).textContent).toContain('Administrator');
  });

  it('keeps a name a person wrote as written', async () => {
    useSession.getState().signIn('tok', { ...userInfo, username: 'li', realname: '管理员' });
    await i18n.changeLanguage('en-US');
    menu();
    expect((await screen.findByRole('button', { name: 'User menu' })).textContent).toContain('管理员');
  });
});

describe('logging out', () => {
  beforeEach(async () => {
    localStorage.clear();
    await i18n.changeLanguage('en-US');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the message of a failed logout (SPEC section 8) and still ends the session locally (SPEC section 4)', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ success: false, code: 500, message: 'The session could not be ended', result: null, timestamp: 1 }), { status: 500, headers: { 'Content-Type': 'application/json' } }));
    vi.stubGlobal('fetch', fetch);
    useSession.getState().signIn('tok', userInfo);
    menu();
    fireEvent.click(await screen.findByRole('button', { name: 'User menu' }));
    fireEvent.click(await screen.findByText('Log out'));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText('The session could not be ended')).toBeTruthy();
    expect(useSession.getState().token).toBeFalsy();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('says nothing when the server ends the session', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ success: true, code: 200, message: 'Logged out', result: null, timestamp: 1 }), { status: 200, headers: { 'Content-Type': 'application/json' } })));
    useSession.getState().signIn('tok', userInfo);
    menu();
    fireEvent.click(await screen.findByRole('button', { name: 'User menu' }));
    fireEvent.click(await screen.findByText('Log out'));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(useSession.getState().token).toBeFalsy());
    expect(screen.queryByText('Logged out')).toBeNull();
  });
});
