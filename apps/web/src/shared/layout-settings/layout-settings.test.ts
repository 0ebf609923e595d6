import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_PREFIX } from '../storage/index.ts';
import { defaultLayoutSettings, deviceClassOf, headerHidden, isDarkContent, normaliseSettings, PRIMARY_COLORS, sidebarOpensAt } from './layout-settings.ts';
import { LAYOUT_SETTINGS_KEY, loadLayoutSettings, useLayoutSettings } from './layout-settings-store.ts';

const storedRaw = () => JSON.parse(localStorage.getItem(STORAGE_PREFIX + LAYOUT_SETTINGS_KEY) ?? 'null') as { value: unknown; expire: unknown } | null;

describe('layout settings', () => {
  beforeEach(() => {
    localStorage.clear();
    useLayoutSettings.getState().reset();
  });

  it('starts from the SPEC defaults', () => {
    expect(normaliseSettings(undefined)).toEqual(defaultLayoutSettings);
    expect(defaultLayoutSettings).toMatchObject({
      primaryColor: '#1890FF',
      navTheme: 'dark',
      layoutMode: 'sidemenu',
      contentWidth: 'Fixed',
      multipage: true,
    });
    expect(PRIMARY_COLORS).toHaveLength(8);
    expect(PRIMARY_COLORS[0].color).toBe('#1890FF');
  });

  it('allows Fluid width only with the top menu', () => {
    const { update } = useLayoutSettings.getState();
    expect(update({ contentWidth: 'Fluid' }).contentWidth).toBe('Fixed');
    expect(update({ layoutMode: 'topmenu', contentWidth: 'Fluid' }).contentWidth).toBe('Fluid');
    // Going back to the side menu brings the width back to Fixed.
    expect(update({ layoutMode: 'sidemenu' }).contentWidth).toBe('Fixed');
  });

  it('hides the header on scroll only with a fixed header, after 100 px', () => {
    const { update } = useLayoutSettings.getState();
    expect(update({ autoHideHeader: true }).autoHideHeader).toBe(false);
    const on = update({ fixedHeader: true, autoHideHeader: true });
    expect(on.autoHideHeader).toBe(true);
    expect(headerHidden(on, 100)).toBe(false);
    expect(headerHidden(on, 101)).toBe(true);
    expect(update({ fixedHeader: false }).autoHideHeader).toBe(false);
  });

  it('has no fixed sidebar with the top menu', () => {
    const { update } = useLayoutSettings.getState();
    expect(update({ fixSiderbar: true }).fixSiderbar).toBe(true);
    expect(update({ layoutMode: 'topmenu' }).fixSiderbar).toBe(false);
    expect(update({ fixSiderbar: true }).fixSiderbar).toBe(false);
  });

  it('persists the whole object under the pro__ prefix without expiry and restores it', () => {
    useLayoutSettings.getState().update({ navTheme: 'light', primaryColor: '#722ed1', multipage: false });
    const stored = storedRaw();
    expect(stored?.expire).toBeNull();
    expect(stored?.value).toEqual({ ...defaultLayoutSettings, navTheme: 'light', primaryColor: '#722ED1', multipage: false });
    expect(loadLayoutSettings()).toEqual(stored?.value);
  });

  it('repairs a damaged or inconsistent stored object', () => {
    localStorage.setItem(STORAGE_PREFIX + LAYOUT_SETTINGS_KEY, JSON.stringify({ value: { primaryColor: 'red', layoutMode: 'x', contentWidth: 'Fluid', autoHideHeader: true }, expire: null }));
    expect(loadLayoutSettings()).toEqual(defaultLayoutSettings);
    localStorage.setItem(STORAGE_PREFIX + LAYOUT_SETTINGS_KEY, 'not json');
    expect(loadLayoutSettings()).toEqual(defaultLayoutSettings);
  });

  it('commits a change only when this browser keeps it', () => {
    const { commit } = useLayoutSettings.getState();
    expect(commit({ primaryColor: '#13C2C2' })).toBe(true);
    expect(storedRaw()?.value).toMatchObject({ primaryColor: '#13C2C2' });
    const refuse = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(useLayoutSettings.getState().commit({ primaryColor: '#722ED1' })).toBe(false);
    refuse.mockRestore();
    expect(useLayoutSettings.getState().settings.primaryColor).toBe('#13C2C2');
    expect(storedRaw()?.value).toMatchObject({ primaryColor: '#13C2C2' });
  });

  it('keeps the light, dark or system theme of the whole console, light when the stored one is unknown', () => {
    expect(defaultLayoutSettings.contentTheme).toBe('light');
    expect(useLayoutSettings.getState().update({ contentTheme: 'dark' }).contentTheme).toBe('dark');
    expect(storedRaw()?.value).toMatchObject({ contentTheme: 'dark', navTheme: 'dark' });
    expect(normaliseSettings({ contentTheme: 'realDark' }).contentTheme).toBe('light');
    expect([isDarkContent('light', true), isDarkContent('dark', false), isDarkContent('system', false), isDarkContent('system', true)]).toEqual([false, true, false, true]);
  });

  it('classes devices and opens the sidebar by the SPEC breakpoints', () => {
    expect(deviceClassOf(375)).toBe('mobile');
    expect(deviceClassOf(767)).toBe('mobile');
    expect(deviceClassOf(768)).toBe('desktop');
    expect(sidebarOpensAt(1087)).toBe(false);
    expect(sidebarOpensAt(1088)).toBe(true);
    const store = useLayoutSettings.getState();
    store.resize(375);
    expect(useLayoutSettings.getState()).toMatchObject({ device: 'mobile', collapsed: true });
    store.resize(1000);
    expect(useLayoutSettings.getState()).toMatchObject({ device: 'desktop', collapsed: true });
    store.resize(1440);
    expect(useLayoutSettings.getState()).toMatchObject({ device: 'desktop', collapsed: false });
  });
});
