export const LOGIN_PATH = '/user/login';
export const HOME_PATH = '/dashboard/analysis';

/** Where to go after login: the wanted path inside the console, never another origin. */
export function redirectTarget(search: string): string {
  const value = new URLSearchParams(search).get('redirect');
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith(LOGIN_PATH)) return HOME_PATH;
  return value;
}
