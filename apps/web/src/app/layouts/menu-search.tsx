import { SearchOutlined } from '@ant-design/icons';
import type { MenuItem } from '@isps/contract';
import { Button, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../../shared/ui/lazy-dialog.tsx';
import styles from './basic-layout.module.css';

/**
 * What the header shows in the select's place until the person goes for it: the select's box, placeholder and
 * icon, read-only. Pointing at it, focusing or pressing it loads the select (some 20 KB the frame would otherwise
 * carry for every page), which takes its place and the focus.
 */
function SearchStandIn({ onWanted }: { onWanted: (focus: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <span className={`${styles.menuSearch} ${styles.searchStandIn}`} onPointerEnter={() => onWanted(false)}>
      <input
        role="combobox"
        aria-expanded="false"
        aria-label={t('header.menuSearch')}
        placeholder={t('header.menuSearch')}
        readOnly
        onFocus={() => onWanted(true)}
        onPointerDown={() => onWanted(true)}
      />
      <SearchOutlined className={styles.searchStandInIcon} aria-hidden />
    </span>
  );
}

/** The stand-in was focused or pressed: the select takes the focus as it comes. */
let focusWanted = false;
const wantFocus = (focus: boolean) => {
  if (focus) focusWanted = true;
};

type SearchSelectProps = { menu: readonly MenuItem[]; onPicked?: () => void; autoFocus?: boolean };
const SearchSelect = lazyPart<SearchSelectProps>(
  () =>
    import('./menu-search-select.tsx').then(
      (m) =>
        function FocusedSearchSelect(props: SearchSelectProps) {
          useEffect(() => {
            focusWanted = false;
          }, []);
          return <m.SearchSelect {...props} autoFocus={props.autoFocus || focusWanted} />;
        },
    ),
  () => <SearchStandIn onWanted={wantFocus} />,
);

/** The desktop header's search: the stand-in until wanted (pointed at, focused, pressed), then the select. */
function DesktopSearch({ menu }: { menu: readonly MenuItem[] }) {
  const [wanted, setWanted] = useState(false);
  if (!wanted)
    return (
      <SearchStandIn
        onWanted={(focus) => {
          wantFocus(focus);
          setWanted(true);
        }}
      />
    );
  return <SearchSelect menu={menu} />;
}

/** SPEC section 2: the header's search over the menu; a search button opening a dialog on a phone. */
export function MenuSearch({ menu, mobile }: { menu: readonly MenuItem[]; mobile: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!mobile) return <DesktopSearch menu={menu} />;
  return (
    <>
      <Button type="text" className={styles.headerButton} icon={<SearchOutlined />} aria-label={t('header.menuSearch')} onClick={() => setOpen(true)} />
      <Modal open={open} title={t('header.menuSearch')} footer={null} onCancel={() => setOpen(false)} destroyOnHidden>
        <SearchSelect menu={menu} autoFocus onPicked={() => setOpen(false)} />
      </Modal>
    </>
  );
}
