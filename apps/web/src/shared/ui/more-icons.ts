type IconModule = { default: import('react').ComponentType };

// The filled and two-tone icons by component name, a chunk of its own: menus name outlined icons (icon-by-name.tsx).
const modules = import.meta.glob<IconModule>(['./*Filled.js', './*TwoTone.js'], { base: '../../../../../node_modules/@ant-design/icons/es/icons/' });

export const moreIconLoaders = new Map(Object.entries(modules).map(([path, load]) => [path.slice(path.lastIndexOf('/') + 1, -'.js'.length), load] as const));
