import type { EntityDeclaration, LiveColumnDeclaration, Page, RealtimeMessage } from '@isps/contract';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useAppEvent } from '../realtime/index.ts';
import { crudKeys } from './api/keys.ts';
import type { CrudRow } from './entity-fields.ts';

/** What a real-time message changes in a live column: `value` on the rows `ids`; `partial` when it named fewer rows than changed. */
export interface LiveChange {
  value: string | number;
  ids: string[];
  partial: boolean;
}

/** The change a message makes to a live column, or null when the column does not follow it. */
export function liveChangeOf(live: LiveColumnDeclaration, message: Pick<RealtimeMessage, 'cmd' | 'msgId' | 'data'>): LiveChange | null {
  if (!Object.hasOwn(live.on, message.cmd)) return null;
  const value = live.on[message.cmd] as string | number;
  const data = (message.data ?? {}) as { ids?: unknown; devices?: unknown; count?: unknown };
  let ids: string[] = [];
  if (Array.isArray(data.ids)) ids = data.ids.filter((id): id is string => typeof id === 'string');
  else if (Array.isArray(data.devices)) ids = data.devices.map((d) => (d as { id?: unknown }).id).filter((id): id is string => typeof id === 'string');
  else if (typeof message.msgId === 'string' && message.msgId !== '') ids = [message.msgId];
  const count = typeof data.count === 'number' ? data.count : ids.length;
  return { value, ids, partial: count > ids.length };
}

/** The rows with the change applied (the same array when none of them is named); tree children too. */
export function applyLiveChange<R extends CrudRow>(rows: R[], field: string, change: LiveChange): R[] {
  const named = new Set(change.ids);
  let changed = false;
  const next = rows.map((row) => {
    const children = row.children ? applyLiveChange(row.children, field, change) : undefined;
    const hit = named.has(row.id) && row[field] !== change.value;
    if (!hit && children === row.children) return row;
    changed = true;
    const copy: R = { ...row, ...(hit ? { [field]: change.value } : {}) };
    if (children) copy.children = children;
    // a server-rendered text of the old value would now be wrong
    if (hit) delete copy[`${field}_dictText`];
    return copy;
  });
  return changed ? next : rows;
}

/** Applies a change to every cached list and tree of the entity; true when the lists must be read again. */
export function applyToCache(client: QueryClient, entity: EntityDeclaration, live: LiveColumnDeclaration, change: LiveChange): boolean {
  client.setQueriesData<unknown>({ queryKey: crudKeys.all(entity) }, (data: unknown) => {
    if (Array.isArray(data)) return applyLiveChange(data as CrudRow[], live.field, change);
    const page = data as Page<CrudRow> | undefined;
    if (page && Array.isArray(page.records)) {
      const records = applyLiveChange(page.records, live.field, change);
      return records === page.records ? page : { ...page, records };
    }
    return data;
  });
  return change.partial;
}

/** The ids among `ids` that no list or tree on screen holds (a row the server created after the list was read). */
export function idsNotShown(client: QueryClient, entity: EntityDeclaration, ids: string[]): string[] {
  const shown = new Set<string>();
  const collect = (rows: CrudRow[]) => {
    for (const row of rows) {
      shown.add(row.id);
      if (row.children) collect(row.children);
    }
  };
  for (const query of client.getQueryCache().findAll({ queryKey: crudKeys.all(entity), type: 'active' })) {
    const kind = query.queryKey[2];
    if (kind !== 'list' && kind !== 'tree') continue;
    const data = query.state.data as CrudRow[] | Page<CrudRow> | undefined;
    if (Array.isArray(data)) collect(data);
    else if (data && Array.isArray(data.records)) collect(data.records);
  }
  return ids.filter((id) => !shown.has(id));
}

/** How long messages naming rows the lists lack are gathered into one read of the lists. */
export const UNSHOWN_ROWS_DELAY_MS = 300;

/**
 * Keeps the entity's live column current while the screen is mounted: named rows change in place; a message that
 * names only some of what changed, or a socket that reopened (messages may have been missed), reads the lists again.
 * A message naming a row the lists lack (a device connecting for the first time gets its row then) reads them again
 * once for all such messages of a short while; a row still missing after that is on another page or filtered out, and
 * its later messages read nothing again.
 */
export function useLiveColumn(entity: EntityDeclaration): void {
  const client = useQueryClient();
  const live = entity.live;
  const looked = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useAppEvent('realtimeMessage', (message) => {
    if (!live) return;
    const change = liveChangeOf(live, message);
    if (!change) return;
    if (applyToCache(client, entity, live, change)) {
      void client.invalidateQueries({ queryKey: crudKeys.all(entity) });
      return;
    }
    const unseen = idsNotShown(client, entity, change.ids).filter((id) => !looked.current.has(id));
    if (unseen.length === 0) return;
    for (const id of unseen) looked.current.add(id);
    timer.current ??= setTimeout(() => {
      timer.current = null;
      void client.invalidateQueries({ queryKey: crudKeys.all(entity) });
    }, UNSHOWN_ROWS_DELAY_MS);
  });
  useAppEvent('realtimeOpen', () => {
    if (live) void client.invalidateQueries({ queryKey: crudKeys.all(entity) });
  });
}
