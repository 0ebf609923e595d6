import { Limits, type EntityDeclaration } from '@isps/contract';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { DECLARED_SCREENS } from './declared-screen-list.ts';

type PageModule = { default: ComponentType };

// Every screen a menu item can name: 'dashboard/analysis' → features/dashboard/pages/analysis.tsx.
const pageModules = import.meta.glob<PageModule>(['../features/*/pages/*.tsx', '!../features/*/pages/*.test.tsx']);

const kebab = (segment: string) => segment.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/[_\s]+/g, '-').toLowerCase();

// Menu screens drawn by another feature (announcements live with the notices of features/message).
const pageAliases: Record<string, string> = {
  'system/announcement': 'message/announcement',
  'system/userAnnouncement': 'message/userAnnouncement',
  // the emergency scenario's screen is drawn by the emergency feature, beside its alarm
  'device/emergency': 'emergency/emergency',
  // the device area's cabinets are the storage feature's cabinet tree (areas, devices, their cabinets)
  'device/cabinet': 'storage/cabinetTree',
  // attendance: the rules of both areas, the daily results and the monthly statistics are the attendance feature's
  'device/oaRule': 'attendance/oaRule',
  'system/attendanceRule': 'attendance/attendanceRule',
  'device/attendance': 'attendance/attendance',
  'device/attendanceMonth': 'attendance/attendanceMonth',
};

/** The module key of a menu component such as 'dashboard/analysis' or 'system/UserList'. */
export function pageModuleKey(component: string): string {
  const clean = component.replace(/^\/+|\.(tsx|vue)$/g, '');
  const segments = (pageAliases[clean] ?? clean).split('/').filter(Boolean);
  const area = segments[0] ?? '';
  const screen = segments[segments.length - 1] ?? '';
  return `../features/${kebab(area)}/pages/${kebab(screen)}.tsx`;
}

// Screens that are only a declaration (issue 4): the generic CRUD screen renders them, with no page file. The frame
// knows them by name only; the declarations load with the first of them opened.
/** The declared screen a menu component names (its component without slashes or extension, its declaration's name). */
function declarationOf(component: string): { component: string; name: string } | undefined {
  const clean = component.replace(/^\/+|\.(tsx|vue)$/g, '');
  const name = Object.hasOwn(DECLARED_SCREENS, clean) ? DECLARED_SCREENS[clean] : undefined;
  return name === undefined ? undefined : { component: clean, name };
}

type EntityScreen = ComponentType<{ entity: EntityDeclaration }>;

// The feature that draws an area's declared screens (the generic screen plus that feature's extensions).
const declaredScreenLoaders: Record<string, () => Promise<EntityScreen>> = {
  system: () => import('../features/system/index.ts').then((m) => m.SystemEntityScreen),
  vistor: () => import('../features/visitor/admin/visitor-screen.tsx').then((m) => m.VisitorEntityScreen),
  device: () => import('../features/device/index.ts').then((m) => m.DeviceEntityScreen),
  // the origin's 'devices' area (device run logs) is drawn by the device feature too
  devices: () => import('../features/device/index.ts').then((m) => m.DeviceEntityScreen),
  storage: () => import('../features/storage/index.ts').then((m) => m.StorageEntityScreen),
  ks: () => import('../features/keys/key-screen.tsx').then((m) => m.KeyEntityScreen),
  watch: () => import('../features/patrol/patrol-screen.tsx').then((m) => m.PatrolEntityScreen),
  message: () => import('../features/message/file-storage-screen.tsx').then((m) => m.MessageEntityScreen),
};

function loadDeclaredScreen({ component, name }: { component: string; name: string }): (() => Promise<PageModule>) | undefined {
  const loader = declaredScreenLoaders[component.split('/')[0] ?? ''];
  if (!loader) return undefined;
  return () =>
    Promise.all([loader(), import('../shared/crud/entity-declarations.ts')]).then(([Screen, { entityDeclarations }]) => {
      const entity = entityDeclarations.find((e) => e.name === name);
      if (!entity) throw new Error(`no declaration named ${name}`);
      return { default: () => <Screen entity={entity} /> };
    });
}

export function hasPage(component: string): boolean {
  const declared = declarationOf(component);
  return pageModuleKey(component) in pageModules || (declared !== undefined && loadDeclaredScreen(declared) !== undefined);
}

function withTimeout(load: () => Promise<PageModule>): () => Promise<PageModule> {
  return () =>
    new Promise<PageModule>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('chunk load timeout')), Limits.chunkLoadTimeoutMs);
      load().then(
        (module) => {
          clearTimeout(timer);
          resolve(module);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
}

const cache = new Map<string, LazyExoticComponent<ComponentType>>();

/** The lazily loaded page of a menu component (a page file first, else a declared screen), or null when none. */
export function lazyPage(component: string): LazyExoticComponent<ComponentType> | null {
  const pageKey = pageModuleKey(component);
  const declared = pageModules[pageKey] ? undefined : declarationOf(component);
  const key = declared ? `declared:${declared.name}` : pageKey;
  const load = pageModules[pageKey] ?? (declared ? loadDeclaredScreen(declared) : undefined);
  if (!load) return null;
  let page = cache.get(key);
  if (!page) {
    page = lazy(withTimeout(load));
    cache.set(key, page);
  }
  return page;
}

/** Forgets a page whose chunk failed to load (or timed out), so that trying again fetches it anew. */
export function forgetPage(page: LazyExoticComponent<ComponentType>): void {
  for (const [key, cached] of cache) if (cached === page) cache.delete(key);
}
