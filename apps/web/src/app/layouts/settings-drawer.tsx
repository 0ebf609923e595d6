import { CheckOutlined } from '@ant-design/icons';
import { App, Divider, Drawer, Radio, Switch, Tooltip, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTENT_THEMES, PRIMARY_COLORS, isHexColor, useLayoutSettings, type LayoutSettings } from '../../shared/layout-settings/index.ts';
import styles from './settings-drawer.module.css';

type BooleanSetting = 'fixedHeader' | 'autoHideHeader' | 'fixSiderbar' | 'colorWeak' | 'multipage';

function SettingRow({ label, hint, disabled, children }: { label: string; hint?: string; disabled?: boolean; children: ReactNode }) {
  const row = (
    <div className={styles.row} aria-disabled={disabled || undefined}>
      <span className={disabled ? styles.disabledLabel : undefined}>{label}</span>
      {children}
    </div>
  );
  return disabled && hint ? (
    <Tooltip title={hint} placement="left">
      {row}
    </Tooltip>
  ) : (
    row
  );
}

/** SPEC section 2 settings drawer: every layout preference, applied at once and kept in this browser. */
/** A titled section of the drawer with one choice among a few, as solid buttons. */
function ChoiceSection<T extends string>({ id, title, value, onChange, options }: { id: string; title: string; value: T; onChange: (value: T) => void; options: { value: T; label: string }[] }) {
  return (
    <section aria-labelledby={id}>
      <Typography.Title level={5} id={id} className={styles.heading}>
        {title}
      </Typography.Title>
      <Radio.Group optionType="button" buttonStyle="solid" aria-labelledby={id} className={styles.choice} value={value} onChange={(e) => onChange(e.target.value as T)} options={options} />
    </section>
  );
}

export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const settings = useLayoutSettings((s) => s.settings);
  const update = useLayoutSettings((s) => s.update);
  const commit = useLayoutSettings((s) => s.commit);
  const top = settings.layoutMode === 'topmenu';

  function applyColor(color: string) {
    if (color === settings.primaryColor) return;
    const key = 'theme-color';
    void message.loading({ key, content: t('settings.applyingTheme'), duration: 0 });
    try {
      if (!isHexColor(color)) throw new Error('not a colour');
      // Compiling the token map first: a colour the theme cannot derive from never reaches the page.
      theme.getDesignToken({ token: { colorPrimary: color } });
      // A colour this browser cannot keep would be lost at the next start, so it is not applied either.
      if (!commit({ primaryColor: color })) throw new Error('not kept');
      // The loading notice stays for a moment so the change is seen as the theme's doing.
      window.setTimeout(() => message.destroy(key), 400);
    } catch {
      void message.error({ key, content: t('settings.themeFailed') });
    }
  }

  const toggle = (name: BooleanSetting, disabled = false, hint?: string) => (
    <SettingRow label={t(`settings.${name}`)} hint={hint} disabled={disabled}>
      <Switch
        size="small"
        aria-label={t(`settings.${name}`)}
        checked={settings[name]}
        disabled={disabled}
        onChange={(checked) => update({ [name]: checked } as Partial<LayoutSettings>)}
      />
    </SettingRow>
  );

  return (
    <Drawer open={open} onClose={onClose} title={t('settings.title')} size={300} destroyOnHidden={false}>
      <ChoiceSection
        id="settings-content-theme"
        title={t('settings.contentTheme')}
        value={settings.contentTheme}
        onChange={(contentTheme) => update({ contentTheme })}
        options={CONTENT_THEMES.map((value) => ({ value, label: t(`settings.contentTheme.${value}`) }))}
      />
      <Divider />
      <ChoiceSection
        id="settings-nav-theme"
        title={t('settings.navTheme')}
        value={settings.navTheme}
        onChange={(navTheme) => update({ navTheme })}
        options={(['dark', 'light'] as const).map((value) => ({ value, label: t(`settings.navTheme.${value}`) }))}
      />
      <Divider />
      <section aria-labelledby="settings-primary-color">
        <Typography.Title level={5} id="settings-primary-color" className={styles.heading}>
          {t('settings.primaryColor')}
        </Typography.Title>
        <div className={styles.colors} role="group" aria-labelledby="settings-primary-color">
          {PRIMARY_COLORS.map(({ key, color }) => (
            <Tooltip key={key} title={t(`settings.color.${key}`)}>
              <button
                type="button"
                className={styles.swatch}
                style={{ background: color }}
                aria-label={t(`settings.color.${key}`)}
                aria-pressed={settings.primaryColor === color}
                onClick={() => applyColor(color)}
              >
                {settings.primaryColor === color ? <CheckOutlined /> : null}
              </button>
            </Tooltip>
          ))}
        </div>
      </section>
      <Divider />
      <section aria-labelledby="settings-layout-mode">
        <Typography.Title level={5} id="settings-layout-mode" className={styles.heading}>
          {t('settings.layoutMode')}
        </Typography.Title>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          aria-labelledby="settings-layout-mode"
          className={styles.choice}
          value={settings.layoutMode}
          onChange={(e) => update({ layoutMode: e.target.value as LayoutSettings['layoutMode'] })}
          options={(['sidemenu', 'topmenu'] as const).map((value) => ({ value, label: t(`settings.layoutMode.${value}`) }))}
        />
        <SettingRow label={t('settings.contentWidth')} hint={t('settings.contentWidthHint')} disabled={!top}>
          <Radio.Group
            size="small"
            optionType="button"
            aria-label={t('settings.contentWidth')}
            disabled={!top}
            value={settings.contentWidth}
            onChange={(e) => update({ contentWidth: e.target.value as LayoutSettings['contentWidth'] })}
            options={(['Fixed', 'Fluid'] as const).map((value) => ({ value, label: t(`settings.contentWidth.${value}`) }))}
          />
        </SettingRow>
        {toggle('fixedHeader')}
        {toggle('autoHideHeader', !settings.fixedHeader, t('settings.autoHideHeaderHint'))}
        {toggle('fixSiderbar', top, t('settings.fixSiderbarHint'))}
      </section>
      <Divider />
      <section aria-labelledby="settings-other">
        <Typography.Title level={5} id="settings-other" className={styles.heading}>
          {t('settings.other')}
        </Typography.Title>
        {toggle('colorWeak')}
        {toggle('multipage')}
      </section>
    </Drawer>
  );
}
