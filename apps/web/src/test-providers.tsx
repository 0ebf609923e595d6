import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from './shared/i18n/index.ts';

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
