import { AccountPath, type LoginSettings } from '@isps/contract';
import { http, unwrap } from '../../../shared/api/index.ts';

/** The tenant a login page is for: the page address's `tenant` parameter (a tenant code), if any. */
export function pageTenant(search: string): string | undefined {
  return new URLSearchParams(search).get('tenant')?.trim() || undefined;
}

/** What the login page offers, as the server says (captcha on or off, the tenant's self-registration). */
export async function getLoginSettings(tenant?: string): Promise<LoginSettings> {
  return unwrap(await http.get<LoginSettings>(AccountPath.loginSettings, tenant ? { tenant } : undefined, { silent: true }));
}
