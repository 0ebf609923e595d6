import { AnnouncementPath, type Announcement } from '@isps/contract';
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { i18n } from '../../../shared/i18n/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { TEST_USER, renderInConsole } from '../../../test-providers.tsx';
import AnnouncementPage from './announcement.tsx';

const row = (id: string, titile: string, validity: Announcement['validity']): Partial<Announcement> => ({
  id,
  titile,
  msgCategory: '1',
  priority: 'L',
  msgType: 'ALL',
  sendStatus: '1',
  sender: 'admin',
  sendTime: null,
  validity,
});

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

beforeEach(() => {
  localStorage.clear();
  useSession.getState().signIn('tok', TEST_USER);
  useSession.getState().setPermissions([], [], []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith(AnnouncementPath.list)) {
        const records = [row('a', 'No window', 'unspecified'), row('b', 'This week', 'inEffect'), row('c', 'Last year', 'expired')];
        return Response.json({ success: true, message: '', code: 200, result: { records, total: 3, size: 10, current: 1, pages: 1 }, timestamp: 1 });
      }
      return Response.json({ success: false, message: 'unexpected', code: 404, result: null, timestamp: 1 }, { status: 404 });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('the announcement authoring list', () => {
  it('shows each announcement as unspecified, in effect or expired (SPEC section 4)', async () => {
    renderInConsole(
      <MemoryRouter>
        <AnnouncementPage />
      </MemoryRouter>,
    );
    const cells = async (titile: string) => within((await screen.findByText(titile)).closest('tr')!);
    expect((await cells('No window')).getByText('Unspecified')).toBeTruthy();
    expect((await cells('This week')).getByText('In effect')).toBeTruthy();
    expect((await cells('Last year')).getByText('Expired')).toBeTruthy();
    expect(screen.getAllByText('Validity').length).toBeGreaterThan(0);
  });
});
