import type { ReactNode } from 'react';
import { usePermission } from './use-permission.ts';

/** Renders its children only for users holding the button permission `code`. */
export function Authorized({ code, children, fallback = null }: { code: string; children: ReactNode; fallback?: ReactNode }) {
  return usePermission(code) ? children : fallback;
}
