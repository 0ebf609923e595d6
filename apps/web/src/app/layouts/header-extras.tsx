import type { ComponentType } from 'react';
import { NoticeBell } from '../../features/message/index.ts';
import { TenantSelect } from './tenant-select.tsx';

/**
 * Controls other parts of the console add to the header, drawn before the settings gear (the notification bell
 * of issue 3 goes here: `registerHeaderExtra('notices', NoticeBell)` from the app shell).
 */
const extras = new Map<string, ComponentType>();

export function registerHeaderExtra(key: string, component: ComponentType): void {
  extras.set(key, component);
}

export function HeaderExtras() {
  return (
    <>
      {[...extras.entries()].map(([key, Extra]) => (
        <Extra key={key} />
      ))}
    </>
  );
}

registerHeaderExtra('notices', NoticeBell);
registerHeaderExtra('tenant', TenantSelect);
