import type { KeyEntry, KeyHolder, SyncKeysPayload } from '@isps/contract';
import { accessAllowedAt, type SiteCalendar } from './access-window.ts';

/** What a simulated key cabinet holds: the list it was last sent, the keys out of their slots, the slots freed by an emergency. */
export interface HeldKeys {
  keys: KeyEntry[];
  version: string | null;
  /** slot → who took the key (null: taken in an emergency release, by anyone) */
  out: Map<number, string | null>;
  released: Set<number>;
}

export function emptyHeldKeys(): HeldKeys {
  return { keys: [], version: null, out: new Map(), released: new Set() };
}

/**
 * A key cabinet's rules, on the list the console sent (`syncKeys` replaces it whole): a key leaves its slot for a
 * person the list names for that slot while one of their time settings is in force at the device's clock (the
 * contract's evaluator, as the doors decide), or for anyone while the emergency releases the slot. A key that is out
 * cannot be taken again until it is back.
 */
export class KeyStore {
  constructor(private readonly held: HeldKeys) {}

  apply(payload: SyncKeysPayload): void {
    this.held.keys = payload.keys;
    this.held.version = payload.version;
  }

  get version(): string | null {
    return this.held.version;
  }

  entry(slot: number): KeyEntry | undefined {
    return this.held.keys.find((k) => k.slot === slot);
  }

  isOut(slot: number): boolean {
    return this.held.out.has(slot);
  }

  /** slots whose key is out */
  outSlots(): number[] {
    return [...this.held.out.keys()].sort((a, b) => a - b);
  }

  /** Who may take the key of `slot` now: the holder the credential names, or null; `released` when the emergency frees it. */
  decide(slot: number, credential: { cardNo?: string; peopleId?: string }, time: number, site: SiteCalendar): { allowed: boolean; holder: KeyHolder | null; released: boolean } {
    if (this.isOut(slot)) return { allowed: false, holder: null, released: false };
    const holder = this.entry(slot)?.holders.find((h) => (credential.cardNo !== undefined && h.cardNo === credential.cardNo) || (credential.peopleId !== undefined && h.peopleId === credential.peopleId)) ?? null;
    if (this.held.released.has(slot)) return { allowed: true, holder, released: true };
    const allowed = holder !== null && holder.times.some((time_) => accessAllowedAt(time_, time, site));
    return { allowed, holder: allowed ? holder : null, released: false };
  }

  take(slot: number, peopleId: string | null): void {
    this.held.out.set(slot, peopleId);
  }

  /** The key is back in its slot; answers whether it was out. */
  giveBack(slot: number): boolean {
    return this.held.out.delete(slot);
  }

  release(slots: readonly number[], open: boolean): void {
    for (const slot of slots) {
      if (open) this.held.released.add(slot);
      else this.held.released.delete(slot);
    }
  }

  isReleased(slot: number): boolean {
    return this.held.released.has(slot);
  }
}
