import { create } from 'zustand';
import { HOME_PATH } from '../route-guard.ts';

/** One open page of the multi-page bar, keyed by its full path (path + query). */
export interface PageTab {
  key: string;
  pathname: string;
  /** an i18n key, translated when drawn, so a language switch retitles every tab */
  titleKey: string;
}

export type CloseOutcome = { closed: true; next: string | null } | { closed: false; reason: 'home' | 'last' };

export interface TabsState {
  tabs: PageTab[];
  /** bumped by 'refresh' so the page with that key mounts again */
  refreshes: Record<string, number>;
  open(tab: PageTab): void;
  /** closes one tab; `active` is the tab on screen, so the caller knows where to go next */
  close(key: string, active: string): CloseOutcome;
  closeLeft(key: string): void;
  closeRight(key: string): void;
  closeOthers(key: string): void;
  refresh(key: string): void;
  reset(): void;
}

const isHome = (tab: PageTab) => tab.pathname === HOME_PATH;

/** The home page stays whatever else is closed (SPEC section 2: it cannot be closed). */
function keepWithHome(tabs: PageTab[], kept: PageTab[]): PageTab[] {
  const home = tabs.find(isHome);
  return home && !kept.includes(home) ? [home, ...kept] : kept;
}

export const useTabs = create<TabsState>()((set, get) => ({
  tabs: [],
  refreshes: {},
  open(tab) {
    const tabs = get().tabs;
    const index = tabs.findIndex((t) => t.key === tab.key);
    // home, which never closes, heads the bar even when it was opened after other pages
    if (index === -1) set({ tabs: isHome(tab) ? [tab, ...tabs] : [...tabs, tab] });
    else if (tabs[index]?.titleKey !== tab.titleKey) set({ tabs: tabs.map((t, i) => (i === index ? tab : t)) });
  },
  close(key, active) {
    const tabs = get().tabs;
    const index = tabs.findIndex((t) => t.key === key);
    const tab = tabs[index];
    if (!tab) return { closed: true, next: null };
    if (isHome(tab)) return { closed: false, reason: 'home' };
    if (tabs.length <= 1) return { closed: false, reason: 'last' };
    const rest = tabs.filter((t) => t.key !== key);
    set({ tabs: rest });
    // Closing the page on screen shows its right-hand neighbour, or the left one at the end of the bar.
    const next = key === active ? (rest[index] ?? rest[index - 1] ?? rest[0])?.key ?? null : null;
    return { closed: true, next };
  },
  closeLeft(key) {
    const tabs = get().tabs;
    const index = tabs.findIndex((t) => t.key === key);
    if (index > 0) set({ tabs: keepWithHome(tabs, tabs.slice(index)) });
  },
  closeRight(key) {
    const tabs = get().tabs;
    const index = tabs.findIndex((t) => t.key === key);
    if (index !== -1) set({ tabs: keepWithHome(tabs, tabs.slice(0, index + 1)) });
  },
  closeOthers(key) {
    const tabs = get().tabs;
    set({ tabs: keepWithHome(tabs, tabs.filter((t) => t.key === key)) });
  },
  refresh(key) {
    const refreshes = get().refreshes;
    set({ refreshes: { ...refreshes, [key]: (refreshes[key] ?? 0) + 1 } });
  },
  reset() {
    set({ tabs: [], refreshes: {} });
  },
}));
