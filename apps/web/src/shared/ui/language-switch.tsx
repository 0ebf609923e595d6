import { GlobalOutlined } from '@ant-design/icons';
import { LANGUAGES } from '@isps/contract';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { storedLanguage } from '../i18n/index.ts';
import { chooseLanguage } from '../session/index.ts';

/** The console header's and the visitor pages' control (the login and account pages draw LightLanguageSwitch, without antd); each language is named in its own words. */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t } = useTranslation();
  const current = storedLanguage();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((lang) => ({ key: lang, label: <span lang={lang}>{t(`language.${lang}`)}</span> })),
        onClick: ({ key }) => void chooseLanguage(key as (typeof LANGUAGES)[number]),
      }}
    >
      <Button type="text" className={className} icon={<GlobalOutlined />} aria-label={t('language.switch')}>
        <span lang={current}>{t(`language.${current}`)}</span>
      </Button>
    </Dropdown>
  );
}
