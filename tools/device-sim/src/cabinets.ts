import { SyncCabinetsOp, type CabinetEntry, type SyncCabinetsPayload } from '@isps/contract';

/** What a cabinet device holds of one cabinet: who may open it, until when, and the version the console sent. */
export type HeldCabinet = Omit<CabinetEntry, 'no'>;

/**
 * The allocations a simulated cabinet device holds, by cabinet number, kept in the device's memory (across its
 * restarts): `syncCabinets` sets them, a cabinet told with no holders is cleared, and a clear empties them all.
 */
export class CabinetStore {
  constructor(private readonly held: Map<number, HeldCabinet>) {}

  apply(payload: SyncCabinetsPayload): void {
    if (payload.op === SyncCabinetsOp.clear) return this.held.clear();
    for (const { no, ...entry } of payload.cabinets) {
      if (entry.holders.length === 0) this.held.delete(no);
      else this.held.set(no, entry);
    }
  }

  get(no: number): HeldCabinet | undefined {
    return this.held.get(no);
  }

  /** Emptied on the device: the allocation it held is gone; answers the version it was. */
  clear(no: number): string | null {
    const entry = this.held.get(no);
    this.held.delete(no);
    return entry?.version ?? null;
  }

  /** `"<number>:<version>"` of each cabinet it holds (the answer to `cabinetReport`). */
  report(): string[] {
    return [...this.held].sort(([a], [b]) => a - b).map(([no, entry]) => `${no}:${entry.version}`);
  }

  /** The holder of a cabinet a card (or a person's id) opens, if the allocation is in force at `time`. */
  holderOf(no: number, credential: { cardNo?: string; peopleId?: string }, time: number): HeldCabinet['holders'][number] | null {
    const entry = this.held.get(no);
    if (!entry || (entry.expireAt !== null && entry.expireAt <= time)) return null;
    return entry.holders.find((h) => (credential.cardNo !== undefined && h.cardNo === credential.cardNo) || (credential.peopleId !== undefined && h.peopleId === credential.peopleId)) ?? null;
  }
}
