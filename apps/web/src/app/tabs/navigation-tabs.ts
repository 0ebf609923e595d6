import type { MenuItem } from '@isps/contract';
import { menuRoutes } from '../menu-model.tsx';
import type { NavigatedLocation } from '../navigation.ts';
import { STATIC_ROUTES } from '../static-routes.ts';
import type { PageTab } from './tab-store.ts';

/** The pages that get a tab, with their title keys. */
export interface TabCatalogue {
  titles: ReadonlyMap<string, string>;
}

/**
 * A tab for every page the console draws at its own address: the menu's built pages and the signed-in static pages.
 * Addresses that only pass on (a menu group, an unknown or unbuilt path on its way to /404) get none, so no tab is
 * left behind for a page that was never on screen.
 */
export function tabCatalogue(menu: readonly MenuItem[]): TabCatalogue {
  const titles = new Map<string, string>();
  for (const route of menuRoutes(menu)) if (route.kind === 'page') titles.set(route.path, route.title);
  // static routes win over a menu item of the same path, as the router has it
  for (const route of STATIC_ROUTES) if (route.access === 'signedIn') titles.set(route.path, route.titleKey);
  return { titles };
}

export function tabForLocation(location: NavigatedLocation, catalogue: TabCatalogue): PageTab | null {
  const titleKey = catalogue.titles.get(location.pathname);
  return titleKey ? { key: `${location.pathname}${location.search}`, pathname: location.pathname, titleKey } : null;
}
