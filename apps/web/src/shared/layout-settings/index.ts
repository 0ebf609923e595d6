export {
  CONTENT_THEMES,
  HIDE_HEADER_SCROLL_PX,
  MOBILE_MAX_WIDTH,
  NARROW_MAX_WIDTH,
  PRIMARY_COLORS,
  SIDEBAR_COLLAPSED_WIDTH,
  SIDEBAR_WIDTH,
  defaultLayoutSettings,
  deviceClassOf,
  headerHidden,
  isDarkContent,
  isHexColor,
  normaliseSettings,
  sidebarOpensAt,
  type ContentTheme,
  type ContentWidth,
  type DeviceClass,
  type LayoutMode,
  type LayoutSettings,
  type NavTheme,
} from './layout-settings.ts';
export { LAYOUT_SETTINGS_KEY, loadLayoutSettings, useLayoutSettings, type LayoutSettingsState } from './layout-settings-store.ts';
export { applyContentTheme, initialDarkContent, useDarkContent } from './content-theme.ts';
