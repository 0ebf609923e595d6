import { LANGUAGES, type Language } from '@isps/contract';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { storedLanguage } from '../i18n/index.ts';
import { chooseLanguage } from '../session/index.ts';
import { LightIcon } from './light-icon.tsx';
import styles from './light-language-switch.module.css';

/**
 * The language switch of the login and account pages, without antd: a button and a menu of the languages, each named
 * in its own words (arrows move between them, Enter picks, Escape closes); the page reloads in the chosen language.
 */
export function LightLanguageSwitch() {
  const { t } = useTranslation();
  const current = storedLanguage();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (!open) return;
    items.current[Math.max(0, LANGUAGES.indexOf(current))]?.focus();
    const away = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open, current]);

  function onMenuKey(event: KeyboardEvent<HTMLDivElement>) {
    const at = items.current.findIndex((item) => item === document.activeElement);
    const move = (index: number) => {
      event.preventDefault();
      items.current[(index + LANGUAGES.length) % LANGUAGES.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(LANGUAGES.length - 1);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      setOpen(false);
      if (event.key === 'Escape') button.current?.focus();
    }
  }

  function pick(language: Language) {
    setOpen(false);
    void chooseLanguage(language);
  }

  return (
    <div ref={root} className={styles.switch}>
      <button
        ref={button}
        type="button"
        className={styles.button}
        aria-label={t('language.switch')}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((shown) => !shown)}
      >
        <LightIcon name="global" />
        <span lang={current}>{t(`language.${current}`)}</span>
      </button>
      {open && (
        <div role="menu" className={styles.menu} onKeyDown={onMenuKey}>
          {LANGUAGES.map((lang, index) => (
            <button
              key={lang}
              ref={(element) => {
                items.current[index] = element;
              }}
              type="button"
              role="menuitem"
              aria-current={lang === current ? 'true' : undefined}
              tabIndex={-1}
              className={`${styles.item} ${lang === current ? styles.selected : ''}`}
              onClick={() => pick(lang)}
            >
              <span lang={lang}>{t(`language.${lang}`)}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
