import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SyncPeopleOp, type AccessEntry, type SyncPeoplePayload } from '@isps/contract';
import { accessAllowedAt, type SiteCalendar } from './access-window.ts';

/**
 * The people a simulated device holds (its flash memory): kept in a file of a given directory, so a restarted
 * simulator still holds them; without a directory, in memory only.
 */
export class AccessList {
  readonly entries = new Map<string, AccessEntry>();
  private readonly file: string | null;

  constructor(sn: string, dir?: string) {
    this.file = dir ? join(dir, `${sn}.access.json`) : null;
    if (!this.file) return;
    mkdirSync(dir!, { recursive: true });
    try {
      const stored = JSON.parse(readFileSync(this.file, 'utf8')) as AccessEntry[];
      for (const entry of stored) this.entries.set(entry.id, entry);
    } catch {
      // nothing stored yet (or an unreadable file: the server's compare-and-align fills it again)
    }
  }

  apply(payload: SyncPeoplePayload): void {
    if (payload.op === SyncPeopleOp.clear) this.entries.clear();
    else if (payload.op === SyncPeopleOp.remove) for (const id of payload.ids) this.entries.delete(id);
    else if (payload.op === SyncPeopleOp.upsert) for (const entry of payload.people) this.entries.set(entry.id, entry);
    this.save();
  }

  /** What it holds as `id:version`, for the server's compare-and-align. */
  held(): string[] {
    return [...this.entries.values()].map((e) => `${e.id}:${e.version}`);
  }

  /** Writes the list (a new file renamed over the old: a crash leaves one or the other). */
  save(): void {
    if (!this.file) return;
    writeFileSync(`${this.file}.tmp`, JSON.stringify([...this.entries.values()]));
    renameSync(`${this.file}.tmp`, this.file);
  }

  /** Who a card belongs to, and whether they may pass at `time` (one of their time settings in force). */
  decide(cardNo: string, time: number, site: SiteCalendar): { entry: AccessEntry | null; allowed: boolean } {
    const entry = [...this.entries.values()].find((e) => e.cardNo === cardNo) ?? null;
    if (!entry) return { entry: null, allowed: false };
    return { entry, allowed: entry.times.some((setting) => accessAllowedAt(setting, time, site)) };
  }
}
