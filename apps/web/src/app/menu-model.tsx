import { MENU_TITLE_KEYS, type MenuItem } from '@isps/contract';
import { translateTitle } from '../shared/i18n/index.ts';
import { fillUrlTemplate, isExternalUrl } from '../shared/session/index.ts';
import { hasPage } from './page-registry.tsx';

export type MenuRoute =
  | { kind: 'page'; path: string; component: string; title: string }
  | { kind: 'missing'; path: string; title: string }
  | { kind: 'redirect'; path: string; to: string; title: string };

/** An http(s) address, after its placeholders are filled, that the menu opens in a new window. */
export function externalUrl(item: MenuItem): string | null {
  const candidate = isExternalUrl(item.path) ? item.path : item.meta.url ? fillUrlTemplate(item.meta.url) : null;
  return isExternalUrl(candidate) ? candidate : null;
}

const isLayout = (component: string | null | undefined) => !component || component.startsWith('layouts/');

/** Our page key of an item (`component` names the origin console's view where it has one). */
const pageOf = (item: MenuItem) => item.meta.pageKey ?? item.component;
/** The stored title (a catalogue key), translated when drawn so a language switch retitles; `title` is the server's text. */
const titleOf = (item: MenuItem) => item.meta.titleKey ?? item.meta.title;

function firstChildPath(item: MenuItem): string | null {
  const child = item.children?.find((c) => c.route !== '0' && !externalUrl(c));
  return child?.path ?? null;
}

/**
 * The routes a menu registers (SPEC section 2), flattened because menu paths are absolute:
 * 'layouts/*' parents only pass through to their redirect, route '0' and external items register nothing.
 */
export function menuRoutes(items: readonly MenuItem[], out: MenuRoute[] = []): MenuRoute[] {
  for (const item of items) {
    if (item.route === '0' || externalUrl(item)) continue;
    const title = titleOf(item);
    const page = pageOf(item);
    if (isLayout(page)) {
      const to = item.redirect || firstChildPath(item);
      if (to && to !== item.path) out.push({ kind: 'redirect', path: item.path, to, title });
    } else if (hasPage(page)) {
      out.push({ kind: 'page', path: item.path, component: page, title });
    } else {
      out.push({ kind: 'missing', path: item.path, title });
    }
    menuRoutes(item.children ?? [], out);
  }
  return out;
}

const screenKeys = MENU_TITLE_KEYS.map((key) => key.split('.').slice(1)).filter((parts) => parts.length === 2);

/**
 * A page of the console a menu can hold (a seeded screen that is built, or an area holding one), whoever holds it:
 * a signed-in user whose menu lacks it is denied access (403), while any other address is not found (404).
 */
export function isConsolePage(pathname: string): boolean {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length === 0 || segments.length > 2) return false;
  const [area, screen] = segments;
  return screenKeys.some(([a, s]) => a === area && (screen === undefined || s === screen) && hasPage(`${a}/${s}`));
}

/** Menu title key of every path, hidden items included, for the document title. */
export function titlesByPath(items: readonly MenuItem[], out = new Map<string, string>()): Map<string, string> {
  for (const item of items) {
    out.set(item.path, titleOf(item));
    titlesByPath(item.children ?? [], out);
  }
  return out;
}

export interface SideMenuItem {
  key: string;
  path: string;
  name: string;
  /** antd icon name from the server, drawn by the layout */
  iconName?: string;
  external: boolean;
  hideChildrenInMenu?: boolean;
  children?: SideMenuItem[];
}

/** The visible side menu: hidden and unregistered items are left out; alwaysShow folds the children away. */
export function sideMenu(items: readonly MenuItem[]): SideMenuItem[] {
  return items
    .filter((item) => !item.hidden && (item.route !== '0' || externalUrl(item)))
    .map((item) => {
      const url = externalUrl(item);
      const children = sideMenu(item.children ?? []);
      return {
        key: item.id || item.path,
        path: url ?? item.path,
        name: translateTitle(titleOf(item)),
        iconName: item.meta.icon || undefined,
        external: !!url,
        hideChildrenInMenu: item.alwaysShow || undefined,
        children: children.length ? children : undefined,
      };
    });
}

/** Paths of pages that keep their state while another tab is on screen (menu meta.keepAlive). */
export function keepAlivePaths(items: readonly MenuItem[], out = new Set<string>()): Set<string> {
  for (const item of items) {
    if (item.meta.keepAlive) out.add(item.path);
    keepAlivePaths(item.children ?? [], out);
  }
  return out;
}

const opensInNewWindow = (item: MenuItem) =>
  !!externalUrl(item) || item.meta.internalOrExternal || /iframe/i.test(pageOf(item) ?? '');

export interface MenuSearchEntry {
  key: string;
  /** translated title, with the titles of its parents before it */
  label: string;
  /** where the entry leads: an in-console path, or an address for a new window */
  target: string;
  newWindow: boolean;
}

/**
 * The header's menu search (SPEC section 2): every non-hidden item that leads somewhere. External and iframe
 * items open their address in a new window; the others navigate inside the console.
 */
export function menuSearchEntries(items: readonly MenuItem[], parents: string[] = [], out: MenuSearchEntry[] = []): MenuSearchEntry[] {
  for (const item of items) {
    if (item.hidden) continue;
    const title = translateTitle(titleOf(item));
    const visibleChildren = (item.children ?? []).filter((c) => !c.hidden && (c.route !== '0' || externalUrl(c)));
    const newWindow = opensInNewWindow(item);
    const leaf = visibleChildren.length === 0 || item.alwaysShow;
    if (leaf && (item.route !== '0' || newWindow)) {
      out.push({
        key: item.id || item.path,
        label: [...parents, title].join(' / '),
        target: newWindow ? (externalUrl(item) ?? item.path) : item.path,
        newWindow,
      });
    }
    if (!item.alwaysShow) menuSearchEntries(visibleChildren, [...parents, title], out);
  }
  return out;
}

export interface BreadcrumbEntry {
  path: string;
  titleKey: string;
}

/** The menu items from the top of the tree down to the page at `pathname`, or an empty list. */
export function breadcrumbTrail(items: readonly MenuItem[], pathname: string): BreadcrumbEntry[] {
  for (const item of items) {
    if (item.path === pathname) return [{ path: item.path, titleKey: titleOf(item) }];
    const below = breadcrumbTrail(item.children ?? [], pathname);
    if (below.length) return [{ path: item.path, titleKey: titleOf(item) }, ...below];
  }
  return [];
}
