import { Limits } from '@isps/contract';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type PageModule = { default: ComponentType };

// Every screen a menu item can name: 'dashboard/analysis' → features/dashboard/pages/analysis.tsx.
const pageModules = import.meta.glob<PageModule>('../features/*/pages/*.tsx');

const kebab = (segment: string) => segment.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/[_\s]+/g, '-').toLowerCase();

/** The module key of a menu component such as 'dashboard/analysis' or 'system/UserList'. */
export function pageModuleKey(component: string): string {
  const segments = component.replace(/^\/+|\.(tsx|vue)$/g, '').split('/').filter(Boolean);
  const area = segments[0] ?? '';
  const screen = segments[segments.length - 1] ?? '';
  return `../features/${kebab(area)}/pages/${kebab(screen)}.tsx`;
}

export function hasPage(component: string): boolean {
  return pageModuleKey(component) in pageModules;
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

/** The lazily loaded page of a menu component, or null when no screen carries that name. */
export function lazyPage(component: string): LazyExoticComponent<ComponentType> | null {
  const key = pageModuleKey(component);
  const load = pageModules[key];
  if (!load) return null;
  let page = cache.get(key);
  if (!page) {
    page = lazy(withTimeout(load));
    cache.set(key, page);
  }
  return page;
}
