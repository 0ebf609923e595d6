import { SearchOutlined } from '@ant-design/icons';
import type { MenuItem } from '@isps/contract';
import { Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { menuSearchEntries, type MenuSearchEntry } from '../menu-model.tsx';
import styles from './basic-layout.module.css';

// The menu search's select, a chunk of its own (menu-search.tsx): the header draws a stand-in until it is wanted.

function useOpenEntry() {
  const navigate = useNavigate();
  return (entry: MenuSearchEntry) => {
    if (entry.newWindow) window.open(entry.target, '_blank', 'noopener,noreferrer');
    else navigate(entry.target);
  };
}

export function SearchSelect({ menu, onPicked, autoFocus }: { menu: readonly MenuItem[]; onPicked?: () => void; autoFocus?: boolean }) {
  const { t, i18n } = useTranslation();
  const open = useOpenEntry();
  // Labels are translated titles, so the list follows the language.
  const entries = useMemo(() => menuSearchEntries(menu), [menu, i18n.language]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <Select<string>
      showSearch={{ optionFilterProp: 'label' }}
      className={styles.menuSearch}
      placeholder={t('header.menuSearch')}
      aria-label={t('header.menuSearch')}
      autoFocus={autoFocus}
      value={null}
      suffixIcon={<SearchOutlined />}
      options={entries.map((e) => ({ value: e.key, label: e.label }))}
      onChange={(key) => {
        const entry = entries.find((e) => e.key === key);
        if (!entry) return;
        onPicked?.();
        open(entry);
      }}
      popupMatchSelectWidth={false}
    />
  );
}

