/** ProLayout tokens of the navigation: the dark and light styles of the settings drawer, in the primary colour. */
const translucent = (hex: string, alpha: string) => `${hex}${alpha}`;

/** `surface` is the light navigation's background: white, or the container colour of the dark console. */
export function siderTokens(dark: boolean, primary: string, surface = '#fff') {
  if (!dark) {
    return {
      colorMenuBackground: surface,
      colorTextMenuSelected: primary,
      colorTextSubMenuSelected: primary,
      colorBgMenuItemSelected: translucent(primary, '1a'),
    };
  }
  return {
    colorMenuBackground: '#001529',
    colorTextMenu: 'rgba(255,255,255,0.72)',
    colorTextMenuSecondary: 'rgba(255,255,255,0.65)',
    colorTextMenuTitle: '#fff',
    colorTextMenuItemHover: '#fff',
    colorTextMenuActive: '#fff',
    colorTextMenuSelected: '#fff',
    colorTextSubMenuSelected: '#fff',
    colorBgMenuItemHover: 'rgba(255,255,255,0.08)',
    colorBgMenuItemSelected: primary,
    colorBgMenuItemActive: 'rgba(255,255,255,0.12)',
    colorMenuItemDivider: 'rgba(255,255,255,0.15)',
    colorBgCollapsedButton: '#fff',
    colorTextCollapsedButton: 'rgba(0,0,0,0.65)',
    colorTextCollapsedButtonHover: primary,
  };
}

/** The header carries the navigation only with the top menu; there it takes the navigation style. */
export function headerTokens(dark: boolean, primary: string, surface = '#fff') {
  const base = { heightLayoutHeader: 56 };
  if (!dark) {
    return { ...base, colorBgHeader: surface, colorTextMenuSelected: primary, colorBgMenuItemSelected: translucent(primary, '1a') };
  }
  return {
    ...base,
    colorBgHeader: '#001529',
    colorHeaderTitle: '#fff',
    colorTextMenu: 'rgba(255,255,255,0.72)',
    colorTextMenuSecondary: 'rgba(255,255,255,0.65)',
    colorTextMenuSelected: '#fff',
    colorTextMenuActive: '#fff',
    colorBgMenuItemSelected: primary,
    colorBgMenuItemHover: 'rgba(255,255,255,0.08)',
    colorTextRightActionsItem: 'rgba(255,255,255,0.85)',
  };
}
