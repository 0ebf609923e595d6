import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
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
