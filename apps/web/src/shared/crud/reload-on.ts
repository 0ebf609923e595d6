import type { EntityDeclaration } from '@isps/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useAppEvent } from '../realtime/index.ts';
import { crudKeys } from './api/keys.ts';

/** How long the messages of a burst (a device reporting several openings) are gathered into one read of the lists. */
export const RELOAD_ON_DELAY_MS = 300;

/**
 * Reads the entity's open lists again (the page on screen, with its filters) after a real-time message its
 * declaration names in `reloadOn`, so rows the devices add appear without a reload. The messages of a short while make
 * one read: the first starts the wait and the others join it, so a steady stream still shows its rows every
 * `RELOAD_ON_DELAY_MS` instead of never. A socket that reopened may have missed messages: the lists are read again too.
 */
export function useReloadOn(entity: EntityDeclaration): void {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const watched = entity.reloadOn ?? [];
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    },
    [],
  );
  const reload = () => {
    timer.current ??= setTimeout(() => {
      timer.current = null;
      void client.invalidateQueries({ queryKey: crudKeys.all(entity) });
    }, RELOAD_ON_DELAY_MS);
  };
  useAppEvent('realtimeMessage', (message) => {
    if (watched.includes(message.cmd)) reload();
  });
  useAppEvent('realtimeOpen', () => {
    if (watched.length > 0) reload();
  });
}
