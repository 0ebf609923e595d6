import { SearchOutlined } from '@ant-design/icons';
import type { MenuItem } from '@isps/contract';
import { Button, Modal, Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { menuSearchEntries, type MenuSearchEntry } from '../menu-model.tsx';
import styles from './basic-layout.module.css';

function useOpenEntry() {
  const navigate = useNavigate();
  return (entry: MenuSearchEntry) => {
    if (entry.newWindow) window.open(entry.target, '_blank', 'noopener,noreferrer');
    else navigate(entry.target);
  };
}

function SearchSelect({ menu, onPicked, autoFocus }: { menu: readonly MenuItem[]; onPicked?: () => void; autoFocus?: boolean }) {
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

/** SPEC section 2: the header's search over the menu; a search button opening a dialog on a phone. */
export function MenuSearch({ menu, mobile }: { menu: readonly MenuItem[]; mobile: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!mobile) return <SearchSelect menu={menu} />;
  return (
    <>
      <Button type="text" className={styles.headerButton} icon={<SearchOutlined />} aria-label={t('header.menuSearch')} onClick={() => setOpen(true)} />
      <Modal open={open} title={t('header.menuSearch')} footer={null} onCancel={() => setOpen(false)} destroyOnHidden>
        <SearchSelect menu={menu} autoFocus onPicked={() => setOpen(false)} />
      </Modal>
    </>
  );
}
