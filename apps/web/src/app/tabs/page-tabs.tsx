import { App, Dropdown, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { translateTitle } from '../../shared/i18n/index.ts';
import { HOME_PATH } from '../route-guard.ts';
import { useTabs, type PageTab } from './tab-store.ts';
import styles from './page-tabs.module.css';

type TabAction = 'refresh' | 'closeLeft' | 'closeRight' | 'closeOthers';

/** SPEC section 2 multi-page bar: one closable tab per visited page, with a context menu. */
export function PageTabs({ activeKey, className }: { activeKey: string; className?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const tabs = useTabs((s) => s.tabs);

  function close(key: string) {
    // The address bar leads: router updates render as transitions, so right after a navigation `activeKey` can
    // still name the page being left, and closing the page navigated to would then leave its address behind.
    const onScreen = `${window.location.pathname}${window.location.search}`;
    const outcome = useTabs.getState().close(key, onScreen);
    if (!outcome.closed) {
      void message.warning(t('tabs.cannotClose'));
      return;
    }
    if (outcome.next) navigate(outcome.next);
  }

  function act(action: TabAction, tab: PageTab) {
    const store = useTabs.getState();
    if (action === 'refresh') store.refresh(tab.key);
    else store[action](tab.key);
    // The tab the menu was opened on is the one left on screen.
    if (tab.key !== activeKey) navigate(tab.key);
  }

  const menuItems = (tab: PageTab, index: number) => [
    { key: 'refresh', label: t('tabs.refresh') },
    { key: 'closeLeft', label: t('tabs.closeLeft'), disabled: index === 0 },
    { key: 'closeRight', label: t('tabs.closeRight'), disabled: index === tabs.length - 1 },
    { key: 'closeOthers', label: t('tabs.closeOthers'), disabled: tabs.length <= 1 },
  ].map((item) => ({ ...item, onClick: () => act(item.key as TabAction, tab) }));

  return (
    <nav className={`${styles.bar} ${className ?? ''}`} aria-label={t('tabs.label')}>
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        activeKey={activeKey}
        onChange={(key) => navigate(key)}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') close(key);
        }}
        // a right click anywhere on a tab, its padding and close button included, opens that tab's menu
        renderTabBar={(barProps, DefaultTabBar) => (
          <DefaultTabBar {...barProps}>
            {(node) => {
              const index = tabs.findIndex((tab) => tab.key === node.key);
              const tab = tabs[index];
              return tab ? (
                <Dropdown key={node.key} trigger={['contextMenu']} menu={{ items: menuItems(tab, index) }}>
                  {node}
                </Dropdown>
              ) : (
                node
              );
            }}
          </DefaultTabBar>
        )}
        items={tabs.map((tab) => ({
          key: tab.key,
          // home never closes, so it offers no close button (SPEC section 2)
          closable: tab.pathname !== HOME_PATH,
          label: <span className={styles.title}>{translateTitle(tab.titleKey)}</span>,
        }))}
      />
    </nav>
  );
}
