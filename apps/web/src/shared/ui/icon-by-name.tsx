import { createElement, useEffect, useState, type ComponentType } from 'react';

type IconModule = { default: ComponentType };

// One lazy chunk per icon: a server-named menu icon loads only that icon, never the whole set. Keyed by file name
// (base), and without preload lists (vite.config.ts): the frame carries this table of the outlined icons, the menu's;
// the filled and two-tone ones have a table of their own (more-icons.ts), loaded when one of them is named.
const outlinedModules = import.meta.glob<IconModule>('./*Outlined.js', { base: '../../../../../node_modules/@ant-design/icons/es/icons/' });
const iconLoaders = new Map(
  Object.entries(outlinedModules).map(([path, load]) => [path.slice(path.lastIndexOf('/') + 1, -'.js'.length), load] as const),
);

/** The loader of the icon named `key` (a component name), if there is such an icon. */
function loaderOf(key: string): Promise<(() => Promise<IconModule>) | undefined> {
  if (key.endsWith('Outlined')) return Promise.resolve(iconLoaders.get(key));
  if (!/(Filled|TwoTone)$/.test(key)) return Promise.resolve(undefined);
  return import('./more-icons.ts').then((m) => m.moreIconLoaders.get(key));
}
const loaded = new Map<string, ComponentType>();

/** 'dashboard', 'clock-circle-o' and 'DashboardOutlined' all name the same outlined icon. */
export function iconComponentName(name: string): string {
  if (/^[A-Z]/.test(name)) return /(Outlined|Filled|TwoTone)$/.test(name) ? name : `${name}Outlined`;
  const words = name.replace(/-o$/, '').split(/[-_\s]+/).filter(Boolean);
  return `${words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}Outlined`;
}

/** An antd icon named by the server (menu meta.icon); renders nothing for an unknown name. */
export function IconByName({ name }: { name: string | null | undefined }) {
  const key = name ? iconComponentName(name) : '';
  const [fetched, setFetched] = useState<{ key: string; Icon: ComponentType } | null>(null);
  useEffect(() => {
    if (!key || loaded.has(key)) return;
    let current = true;
    void loaderOf(key).then((load) =>
      load?.().then((module) => {
        loaded.set(key, module.default);
        if (current) setFetched({ key, Icon: module.default });
      }),
    );
    return () => {
      current = false;
    };
  }, [key]);
  const icon = loaded.get(key) ?? (fetched?.key === key ? fetched.Icon : null);
  // Icons are module-level components from the cache above, so creating the element here is stable.
  return icon ? createElement(icon) : null;
}

/** Every outlined icon by its short name ('area-chart'), for the icon picker. */
export function outlinedIconNames(): string[] {
  return [...iconLoaders.keys()]
    .map((name) =>
      name
        .slice(0, -'Outlined'.length)
        .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
        .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
        .toLowerCase(),
    )
    .sort();
}
