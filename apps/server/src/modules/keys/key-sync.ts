import { KeyCommandKind, type SyncKeysPayload } from '@isps/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DeviceGateway } from '../../gateway/gateway.ts';
import { FollowedSync } from '../../platform/change-follower.ts';
import { computeKeyLists } from './key-lists.ts';

/** Writes to these tables can change who may take which key. */
const WATCHED = new Set(['sys_key', 'sys_key_people', 'sys_people', 'sys_user', 'sys_device_role', 'sys_device_role_key', 'sys_device_role_people', 'sys_device_role_depart', 'sys_device_role_user']);

export interface KeySyncDeps {
  db: Kysely<Database>;
  gateway: DeviceGateway;
  log: { error(obj: object, msg: string): void };
}

/**
 * Keeps every key cabinet's list in step with the console: after each committed change that can touch it, a cabinet
 * whose list (keys and who may take each, when) has another version than the one it was last sent is queued its whole
 * list again (`syncKeys`). A key cabinet holds tens of keys, so the whole list is one small command, and the device
 * replaces what it held: there is no difference to get wrong. The gateway delivers it once the device is online, again
 * after every reconnect until acknowledged, and the device runs each command once.
 */
export class KeySync extends FollowedSync {
  constructor(
    private readonly deps: KeySyncDeps,
    options: { debounceMs?: number } = {},
  ) {
    super({ db: deps.db, log: deps.log, name: 'key sync failed', watched: WATCHED, debounceMs: options.debounceMs });
  }

  /** Every key cabinet (with keys now, or sent a list before) against the list it was last sent. */
  protected async reconcile(): Promise<void> {
    const sentBefore = await this.deps.db.selectFrom('sys_device').select('id').where('keys_sent_version', 'is not', null).execute();
    const withKeys = await this.deps.db.selectFrom('sys_key').select('device_id').distinct().execute();
    const deviceIds = [...new Set([...sentBefore.map((d) => d.id), ...withKeys.map((k) => k.device_id)])];
    if (deviceIds.length === 0) return;
    const lists = await computeKeyLists(this.deps.db, deviceIds);
    const devices = await this.deps.db.selectFrom('sys_device').select(['id', 'keys_sent_version']).where('id', 'in', deviceIds).execute();
    for (const device of devices) {
      const list = lists.get(device.id);
      if (!list || list.version === device.keys_sent_version) continue;
      const payload: SyncKeysPayload = { keys: list.keys, version: list.version };
      await this.deps.gateway.enqueueCommands([{ deviceId: device.id, kind: KeyCommandKind.syncKeys, payload }], 'keySync');
      await this.deps.db.updateTable('sys_device').set({ keys_sent_version: list.version }).where('id', '=', device.id).execute();
    }
  }
}
