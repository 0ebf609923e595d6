/** SPEC sections 2, 4 and 9: every layout preference in one typed object, with its defaults and constraints. */
export type NavTheme = 'dark' | 'light';
/** The colours of the whole console: light, dark, or whatever the operating system asks for. */
export type ContentTheme = 'light' | 'dark' | 'system';
export const CONTENT_THEMES = ['light', 'dark', 'system'] as const satisfies readonly ContentTheme[];
export type LayoutMode = 'sidemenu' | 'topmenu';
export type ContentWidth = 'Fixed' | 'Fluid';
export type DeviceClass = 'mobile' | 'desktop';

export interface LayoutSettings {
  navTheme: NavTheme;
  contentTheme: ContentTheme;
  primaryColor: string;
  layoutMode: LayoutMode;
  contentWidth: ContentWidth;
  fixedHeader: boolean;
  /** hides the header once the page scrolls past 100 px; needs a fixed header */
  autoHideHeader: boolean;
  fixSiderbar: boolean;
  colorWeak: boolean;
  multipage: boolean;
  /** the person's own choice on wide screens; narrow screens always start closed */
  sidebarCollapsed: boolean;
}

/** The eight primary colours of the settings drawer; the first is the SPEC default. */
export const PRIMARY_COLORS = [
  { key: 'daybreak', color: '#1890FF' },
  { key: 'dust', color: '#F5222D' },
  { key: 'volcano', color: '#FA541C' },
  { key: 'sunset', color: '#FAAD14' },
  { key: 'cyan', color: '#13C2C2' },
  { key: 'green', color: '#52C41A' },
  { key: 'geekblue', color: '#2F54EB' },
  { key: 'purple', color: '#722ED1' },
] as const;

// The origin console's defaults; SPEC section 9 names colour, navigation, menu, width and multipage.
export const defaultLayoutSettings: Readonly<LayoutSettings> = Object.freeze({
  navTheme: 'dark',
  contentTheme: 'light',
  primaryColor: '#1890FF',
  layoutMode: 'sidemenu',
  contentWidth: 'Fixed',
  fixedHeader: false,
  autoHideHeader: false,
  fixSiderbar: false,
  colorWeak: false,
  multipage: true,
  sidebarCollapsed: false,
});

export const SIDEBAR_WIDTH = 200;
export const SIDEBAR_COLLAPSED_WIDTH = 80;
/** Below this width the sidebar starts closed. */
export const NARROW_MAX_WIDTH = 1087.99;
/** Below this width the console is a phone: the menu becomes a drawer and the tabs disappear. */
export const MOBILE_MAX_WIDTH = 767.99;
/** How far the page scrolls before a hide-on-scroll header goes away. */
export const HIDE_HEADER_SCROLL_PX = 100;

export const isHexColor = (value: unknown): value is string => typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value);

const pick = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;
const bool = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback);

/**
 * A complete, consistent settings object from anything (stored JSON, a patch applied to the current settings):
 * Fluid width only with the top menu, hide-on-scroll only with a fixed header, no fixed sidebar with the top menu.
 */
export function normaliseSettings(input: unknown): LayoutSettings {
  const raw = (typeof input === 'object' && input !== null ? input : {}) as Partial<Record<keyof LayoutSettings, unknown>>;
  const d = defaultLayoutSettings;
  const layoutMode = pick(raw.layoutMode, ['sidemenu', 'topmenu'], d.layoutMode);
  const top = layoutMode === 'topmenu';
  const fixedHeader = bool(raw.fixedHeader, d.fixedHeader);
  return {
    navTheme: pick(raw.navTheme, ['dark', 'light'], d.navTheme),
    contentTheme: pick(raw.contentTheme, CONTENT_THEMES, d.contentTheme),
    primaryColor: isHexColor(raw.primaryColor) ? raw.primaryColor.toUpperCase() : d.primaryColor,
    layoutMode,
    contentWidth: top ? pick(raw.contentWidth, ['Fixed', 'Fluid'], d.contentWidth) : 'Fixed',
    fixedHeader,
    autoHideHeader: fixedHeader && bool(raw.autoHideHeader, d.autoHideHeader),
    fixSiderbar: top ? false : bool(raw.fixSiderbar, d.fixSiderbar),
    colorWeak: bool(raw.colorWeak, d.colorWeak),
    multipage: bool(raw.multipage, d.multipage),
    sidebarCollapsed: bool(raw.sidebarCollapsed, d.sidebarCollapsed),
  };
}

/** 'mobile' below 768 px, else 'desktop' (SPEC section 4 device classes). */
export function deviceClassOf(width: number): DeviceClass {
  return width <= MOBILE_MAX_WIDTH ? 'mobile' : 'desktop';
}

/** The sidebar opens on wide screens and starts closed below 1088 px. */
export function sidebarOpensAt(width: number): boolean {
  return width > NARROW_MAX_WIDTH;
}

/** Whether a header that hides on scroll is hidden at this scroll position. */
export function headerHidden(settings: Pick<LayoutSettings, 'fixedHeader' | 'autoHideHeader'>, scrollY: number): boolean {
  return settings.fixedHeader && settings.autoHideHeader && scrollY > HIDE_HEADER_SCROLL_PX;
}

/** Whether the console is drawn dark: by the person's choice, or by the system's when they follow it. */
export function isDarkContent(contentTheme: ContentTheme, systemDark: boolean): boolean {
  return contentTheme === 'dark' || (contentTheme === 'system' && systemDark);
}
