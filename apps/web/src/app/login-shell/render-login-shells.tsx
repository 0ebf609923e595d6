/**
 * Build time only (vite.config.ts, loginShell): the login page as index.html's shell shows it, in every language,
 * rendered by the page's own components so that it looks exactly like the console's first drawing of it. Runs in
 * Node with a `localStorage` of the caller's (the page reads the chosen language and layout settings from it).
 */
import { LANGUAGES, type Language } from '@isps/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { UserLayout } from '../layouts/user-layout.tsx';
import { LOGIN_PATH } from '../route-guard.ts';
import { i18n, loadCatalogue } from '../../shared/i18n/index.ts';
import { StorageKey, setStored } from '../../shared/storage/index.ts';
import LoginPage from '../../features/user/pages/login.tsx';

/** Each language's page, and the year its copyright line names (the shell's script writes the visitor's year there). */
export async function renderLoginShells(): Promise<{ year: number; shells: Record<Language, string> }> {
  const shells = {} as Record<Language, string>;
  for (const language of LANGUAGES) {
    setStored(StorageKey.language, language, null);
    await loadCatalogue(language);
    await i18n.changeLanguage(language);
    shells[language] = renderToStaticMarkup(
      <MemoryRouter initialEntries={[LOGIN_PATH]}>
        <UserLayout>
          <LoginPage />
        </UserLayout>
      </MemoryRouter>,
    );
  }
  return { year: new Date().getFullYear(), shells };
}
