import { entityPermissionCodes, type AuthItem, type EntityDeclaration, type Language } from '@isps/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { vi } from 'vitest';
import { setFeedback } from './shared/api/index.ts';
import { i18n } from './shared/i18n/index.ts';
import { useSession } from './shared/session/index.ts';
import { StorageKey, setStored } from './shared/storage/index.ts';

/**
 * Renders `ui` inside the providers the console puts around every page (translations, antd's App for notices and
 * dialogs, a query cache of its own that does not retry), for component tests.
 */
export function renderInConsole(ui: ReactNode) {
  return render(
    <I18nextProvider i18n={i18n}>
      <ConfigProvider button={{ autoInsertSpace: false }}>
        <App>
          <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{ui}</QueryClientProvider>
        </App>
      </ConfigProvider>
    </I18nextProvider>,
  );
}

/** The signed-in user of component tests. */
export const TEST_USER = { id: '1', username: 'admin', realname: 'Admin', nickname: null, orgCode: null, avatar: null, birthday: null, phone: null, email: null, sex: null, workNo: null, status: 1, mustChangePassword: false };

/** Signs TEST_USER in holding every permission of `entities`, with the request layer's notices and dialogs stubbed. */
export function signInHolding(...entities: EntityDeclaration[]): void {
  useSession.getState().signIn('tok', TEST_USER);
  const auth: AuthItem[] = entities.flatMap((entity) => entityPermissionCodes(entity)).map((action) => ({ action, describe: action, type: '1' }));
  useSession.getState().setPermissions([], auth, []);
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
}

/** Reads the console in `lang` as a reader who chose it: the pages speak it and the requests name it (header lang). */
export async function readIn(lang: Language): Promise<void> {
  setStored(StorageKey.language, lang, null);
  await i18n.changeLanguage(lang);
}
