import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../api/index.ts';
import { i18n, storedLanguage } from '../i18n/index.ts';
import { LightLanguageSwitch } from './light-language-switch.tsx';

const reload = browser.reload;

beforeEach(() => {
  localStorage.clear();
  browser.reload = vi.fn();
});

afterEach(() => {
  browser.reload = reload;
});

function renderSwitch() {
  render(
    <I18nextProvider i18n={i18n}>
      <LightLanguageSwitch />
    </I18nextProvider>,
  );
  return screen.getByRole('button', { name: '语言' });
}

describe('the language switch of the login page', () => {
  it('opens a menu of the languages by the keyboard, closes it with Escape', async () => {
    const button = renderSwitch();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await act(async () => fireEvent.click(button));
    const items = screen.getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['简体中文', 'English', '日本語']);
    expect(document.activeElement).toBe(items[0]);
    expect(items[0]!.getAttribute('aria-current')).toBe('true');
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(items[1]!, { key: 'ArrowUp' });
    fireEvent.keyDown(items[0]!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items[2]);
    fireEvent.keyDown(items[2]!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(browser.reload).not.toHaveBeenCalled();
  });

  it('keeps the chosen language and reloads the page in it', async () => {
    const button = renderSwitch();
    await act(async () => fireEvent.click(button));
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: 'English' })));
    expect(storedLanguage()).toBe('en-US');
    expect(browser.reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
