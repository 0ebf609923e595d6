import { create } from 'zustand';
import { getStored, setStored } from '../storage/index.ts';
import { deviceClassOf, normaliseSettings, sidebarOpensAt, type DeviceClass, type LayoutSettings } from './layout-settings.ts';

/** Stored as a whole under `pro__layout-settings`, without expiry. */
export const LAYOUT_SETTINGS_KEY = 'layout-settings';

export interface LayoutSettingsState {
  settings: LayoutSettings;
  device: DeviceClass;
  /** the sidebar (or the mobile drawer) is closed right now */
  collapsed: boolean;
  update(patch: Partial<LayoutSettings>): LayoutSettings;
  /** Applies the patch only when this browser keeps it; false leaves the settings as they were. */
  commit(patch: Partial<LayoutSettings>): boolean;
  reset(): void;
  setCollapsed(collapsed: boolean): void;
  /** the window width changed: device class and the sidebar follow it */
  resize(width: number): void;
}

function persist(settings: LayoutSettings): boolean {
  return setStored(LAYOUT_SETTINGS_KEY, settings, null);
}

const initialWidth = typeof window === 'undefined' ? 1440 : window.innerWidth;

export function loadLayoutSettings(): LayoutSettings {
  return normaliseSettings(getStored<unknown>(LAYOUT_SETTINGS_KEY));
}

export const useLayoutSettings = create<LayoutSettingsState>()((set, get) => {
  const settings = loadLayoutSettings();
  return {
    settings,
    device: deviceClassOf(initialWidth),
    collapsed: !sidebarOpensAt(initialWidth) || (deviceClassOf(initialWidth) === 'desktop' && settings.sidebarCollapsed),
    update(patch) {
      const next = normaliseSettings({ ...get().settings, ...patch });
      persist(next);
      set({ settings: next });
      return next;
    },
    commit(patch) {
      const next = normaliseSettings({ ...get().settings, ...patch });
      if (!persist(next)) return false;
      set({ settings: next });
      return true;
    },
    reset() {
      const next = normaliseSettings({});
      persist(next);
      set({ settings: next });
    },
    setCollapsed(collapsed) {
      // On a phone the drawer opens and closes per visit; only the desktop choice is a preference.
      if (get().device === 'desktop' && sidebarOpensAt(window.innerWidth)) get().update({ sidebarCollapsed: collapsed });
      set({ collapsed });
    },
    resize(width) {
      const device = deviceClassOf(width);
      const before = get().device;
      const wide = sidebarOpensAt(width);
      set({ device, collapsed: device === 'mobile' ? (before === 'mobile' ? get().collapsed : true) : !wide || get().settings.sidebarCollapsed });
    },
  };
});
