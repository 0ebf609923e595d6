import { Button, Result } from 'antd';
import { loadWidgetTexts, storedLanguage } from '../shared/i18n/index.ts';
import { AntdProviders } from '../shared/ui/antd-providers.tsx';

/** antd's illustrated Result with its button, in antd's context: loaded only once a screen has failed. */
export function IllustratedResult({ status, title, subTitle, onReload, reloadText }: { status: '500'; title: string; subTitle: string; onReload: () => void; reloadText: string }) {
  return (
    <AntdProviders>
      <Result
        status={status}
        title={title}
        subTitle={subTitle}
        extra={
          <Button type="primary" onClick={onReload}>
            {reloadText}
          </Button>
        }
      />
    </AntdProviders>
  );
}

/** antd's texts in the active language first. */
export const ready = loadWidgetTexts(storedLanguage());
