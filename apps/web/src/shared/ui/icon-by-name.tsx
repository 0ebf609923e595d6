import { createElement, useEffect, useState, type ComponentType } from 'react';

type IconModule = { default: ComponentType };

// One lazy chunk per icon: a server-named menu icon loads only that icon, never the whole set.
const iconModules = import.meta.glob<IconModule>('../../../../../node_modules/@ant-design/icons/es/icons/*.js');
const iconLoaders = new Map(
  Object.entries(iconModules).map(([path, load]) => [path.slice(path.lastIndexOf('/') + 1, -'.js'.length), load] as const),
);
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
    const load = iconLoaders.get(key);
    if (!load || loaded.has(key)) return;
    let current = true;
    void load().then((module) => {
      loaded.set(key, module.default);
      if (current) setFetched({ key, Icon: module.default });
    });
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
    .filter((name) => name.endsWith('Outlined'))
    .map((name) =>
      name
        .slice(0, -'Outlined'.length)
        .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
        .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
        .toLowerCase(),
    )
    .sort();
}
