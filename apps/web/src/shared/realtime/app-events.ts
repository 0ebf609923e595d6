import type { RealtimeMessage } from '@isps/contract';
import { useEffect, useRef } from 'react';

/** Events the real-time channel publishes for the pages that care (DESIGN section 6). */
export interface AppEvents {
  /** a `topic` or `user` push: the notices changed */
  noticesChanged: { msgId?: string; msgTxt?: string };
  /** a device came online (`connected`) or went offline */
  deviceConnection: { connected: boolean; msgId?: string; msgTxt?: string; data?: unknown };
  /** a door changed state; `data` is what the server sent */
  doorState: { msgId?: string; msgTxt?: string; data?: unknown };
  /** the socket opened (again) */
  realtimeOpen: Record<string, never>;
  /** every server message, as sent (live list columns read the ones their declaration names) */
  realtimeMessage: RealtimeMessage;
}
export type AppEventName = keyof AppEvents;
type Listener<K extends AppEventName> = (payload: AppEvents[K]) => void;

const listeners = new Map<AppEventName, Set<Listener<AppEventName>>>();

export function onAppEvent<K extends AppEventName>(name: K, listener: Listener<K>): () => void {
  let set = listeners.get(name);
  if (!set) listeners.set(name, (set = new Set()));
  set.add(listener as Listener<AppEventName>);
  return () => set.delete(listener as Listener<AppEventName>);
}

export function emitAppEvent<K extends AppEventName>(name: K, payload: AppEvents[K]): void {
  for (const listener of [...(listeners.get(name) ?? [])]) {
    try {
      listener(payload);
    } catch (error) {
      console.error(error);
    }
  }
}

/** Subscribes a component to an app event for as long as it is mounted; the latest `listener` is always called. */
export function useAppEvent<K extends AppEventName>(name: K, listener: Listener<K>): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onAppEvent(name, (payload) => latest.current(payload)), [name]);
}
