import type { TFunction } from 'i18next';
import { feedback } from '../../shared/api/index.ts';

/** SPEC section 9 time bands: before 9, to 11, to 13, before 20, later. */
export function greetingKey(hour: number): string {
  if (hour < 9) return 'greeting.morning';
  if (hour <= 11) return 'greeting.forenoon';
  if (hour <= 13) return 'greeting.noon';
  if (hour < 20) return 'greeting.afternoon';
  return 'greeting.evening';
}

let welcomePending = false;

/**
 * The login page asks for a greeting and the console gives it once the menu has loaded, so a user it then turns
 * away (no menu permission) is not welcomed first. Kept in memory only: a reload does not greet again.
 */
export function expectWelcome(): void {
  welcomePending = true;
}

/** True once after `expectWelcome`. */
export function takeWelcome(): boolean {
  const pending = welcomePending;
  welcomePending = false;
  return pending;
}

export function welcomeBack(t: TFunction): void {
  feedback().notify('success', t('login.welcome'), t('login.welcomeBack', { greeting: t(greetingKey(new Date().getHours())) }), 3);
}
