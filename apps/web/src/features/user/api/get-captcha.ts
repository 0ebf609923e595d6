import { randomImagePath, type CaptchaResult } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** A fresh check key per image: at most 64 characters of [A-Za-z0-9_-]. */
export function newCheckKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `${Date.now().toString(36)}_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export async function getCaptcha(checkKey: string): Promise<string> {
  const result = unwrap(await http.get<string | CaptchaResult>(randomImagePath(checkKey), undefined, { silent: true }));
  return typeof result === 'string' ? result : result.image;
}

export const captchaQuery = (checkKey: string) =>
  queryOptions({ queryKey: ['captcha', checkKey], queryFn: () => getCaptcha(checkKey), staleTime: Infinity, gcTime: 0 });

export function useCaptcha(checkKey: string) {
  return useQuery(captchaQuery(checkKey));
}
