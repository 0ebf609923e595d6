import { createHash } from 'node:crypto';
import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseDialect } from '../../config.ts';
import { ensureDeclaredIndexes, wantedIndexes } from '../declared-indexes.ts';
import { ensureSearchIndexes, searchColumns } from '../search-index.ts';
import type { Database } from '../schema.ts';
import { systemTables } from './0001-system.ts';
import { systemEntityTables } from './0002-system-entities.ts';
import { messageTables } from './0100-message.ts';
import { accountTables } from './0200-account.ts';
import { logOperateTypes } from './0300-log-operate-types.ts';
import { userAdminTables } from './0400-user-admin.ts';
import { dataRuleTables } from './0500-data-rules.ts';
import { scheduledJobTables } from './0600-scheduled-jobs.ts';
import { dataLogTables } from './0700-data-log.ts';
import { departRoleTables } from './0800-depart-roles.ts';
import { departDataRuleTables } from './0810-depart-data-rules.ts';
import { manualRunTimes } from './0820-manual-run-times.ts';
import { logTenants } from './0830-log-tenants.ts';
import { tenancy } from './0900-tenancy.ts';
import { logParams } from './1020-log-params.ts';
import { deviceLinkTables } from './1200-device-link.ts';
import { deviceScreens } from './1250-device-screens.ts';
import { doorSettingTables } from './1270-doors-settings.ts';
import { deviceRoleTables } from './1300-device-roles.ts';
import { peopleTables } from './1320-people.ts';
import { emergencyTables } from './1340-emergency.ts';
import { softUpdateTables } from './1360-soft-update.ts';
import { accessSyncTables } from './1380-access-sync.ts';
import { accessEventTables } from './1385-access-events.ts';
import { accessSyncBuckets } from './1386-access-sync-buckets.ts';
import { deviceExtraTables } from './1400-device-extras.ts';
import { announcementAbstract } from './1450-announcement-abstract.ts';
// after the last released migration: a database migrated before them takes them in order
import { deviceSyncMode } from './1470-device-sync-mode.ts';
import { accessEventVerdicts } from './1471-access-event-verdicts.ts';
import { importJobTables } from './1480-import-jobs.ts';
import { commandExpiry } from './1490-command-expiry.ts';
import { accessEventCards } from './1491-access-event-cards.ts';
import { doorEventTables } from './1520-door-events.ts';
import { deviceSyncStatus } from './1521-device-sync-status.ts';
import { deviceKeyRotation } from './1495-device-key-rotation.ts';
import { fileSize } from './1497-file-size.ts';
import { emergencyReports } from './1530-emergency-reports.ts';
import { deviceAdminGrants } from './1500-device-admin-grants.ts';
import { userLanguage } from './1501-user-language.ts';
import { selfRegistration } from './1540-self-registration.ts';
import { seededDictItems } from './1541-seeded-dict-items.ts';
import { idTypes } from './1542-id-types.ts';
import { alarmFolding } from './1510-alarm-folding.ts';
import { softUpdateFileName } from './1550-soft-update-file-name.ts';
import { reportedDoors } from './1560-reported-doors.ts';
import { storageTables } from './1600-storage.ts';
import { keyTables } from './1610-keys.ts';
import { patrolTables } from './1630-patrol.ts';
import { specRuleTables } from './1640-spec-rules.ts';
import { attendanceTables } from './1620-attendance.ts';
import { doorScheduleTables } from './1650-door-schedules.ts';
import { visitTables } from './1660-visits.ts';
import { visitRequestTables } from './1670-visit-requests.ts';
import { groupFax } from './1690-group-fax.ts';
import { deviceLogRequests } from './1700-device-log-requests.ts';
import { fileNames } from './1701-file-names.ts';
import { reportSchedules } from './1720-report-schedules.ts';
import { floorPlanTables } from './1730-floor-plans.ts';
import { orderTables } from './1740-orders.ts';
import { apiKeyTables } from './1750-api-keys.ts';
import { webhookTables } from './1760-webhooks.ts';

/** Forward only: a released migration is never edited, a change is a new entry. */
const migrations: Record<string, Migration> = {
  '0001-system': systemTables,
  '0002-system-entities': systemEntityTables,
  '0100-message': messageTables,
  '0200-account': accountTables,
  '0300-log-operate-types': logOperateTypes,
  '0400-user-admin': userAdminTables,
  '0500-data-rules': dataRuleTables,
  '0600-scheduled-jobs': scheduledJobTables,
  '0700-data-log': dataLogTables,
  '0800-depart-roles': departRoleTables,
  '0810-depart-data-rules': departDataRuleTables,
  '0820-manual-run-times': manualRunTimes,
  '0830-log-tenants': logTenants,
  '0900-tenancy': tenancy,
  '1020-log-params': logParams,
  '1200-device-link': deviceLinkTables,
  '1250-device-screens': deviceScreens,
  '1270-doors-settings': doorSettingTables,
  '1300-device-roles': deviceRoleTables,
  '1320-people': peopleTables,
  '1340-emergency': emergencyTables,
  '1360-soft-update': softUpdateTables,
  '1380-access-sync': accessSyncTables,
  '1385-access-events': accessEventTables,
  '1386-access-sync-buckets': accessSyncBuckets,
  '1400-device-extras': deviceExtraTables,
  '1450-announcement-abstract': announcementAbstract,
  '1470-device-sync-mode': deviceSyncMode,
  '1471-access-event-verdicts': accessEventVerdicts,
  '1480-import-jobs': importJobTables,
  '1490-command-expiry': commandExpiry,
  '1491-access-event-cards': accessEventCards,
  '1495-device-key-rotation': deviceKeyRotation,
  '1497-file-size': fileSize,
  '1520-door-events': doorEventTables,
  '1521-device-sync-status': deviceSyncStatus,
  '1530-emergency-reports': emergencyReports,
  '1500-device-admin-grants': deviceAdminGrants,
  '1501-user-language': userLanguage,
  '1540-self-registration': selfRegistration,
  '1541-seeded-dict-items': seededDictItems,
  '1542-id-types': idTypes,
  '1510-alarm-folding': alarmFolding,
  '1550-soft-update-file-name': softUpdateFileName,
  '1560-reported-doors': reportedDoors,
  '1600-storage': storageTables,
  '1610-keys': keyTables,
  '1630-patrol': patrolTables,
  '1640-spec-rules': specRuleTables,
  '1620-attendance': attendanceTables,
  '1650-door-schedules': doorScheduleTables,
  '1660-visits': visitTables,
  '1670-visit-requests': visitRequestTables,
  '1690-group-fax': groupFax,
  '1700-device-log-requests': deviceLogRequests,
  '1701-file-names': fileNames,
  '1720-report-schedules': reportSchedules,
  '1730-floor-plans': floorPlanTables,
  '1740-orders': orderTables,
  '1750-api-keys': apiKeyTables,
  '1760-webhooks': webhookTables,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * On PostgreSQL the migration tables are named with the schema the connection works in. Unnamed, kysely takes a
 * `kysely_migration` table in any schema of the database for ours, so a second console (or test) in another schema
 * of the same database would skip creating its own and fail.
 */
async function migrationSchema(db: Kysely<Database>, dialect: DatabaseDialect): Promise<string | undefined> {
  if (dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: set one with ?schema= in DATABASE_URL');
  return schema;
}

/**
 * The names of the migrations the database has taken, or null when it has no record of any. One query: kysely's
 * migrator first reads the shape of every table of the database to learn whether its own exists.
 */
async function appliedMigrations(db: Kysely<Database>, schema: string | undefined): Promise<Set<string> | null> {
  const from = (schema ? db.withSchema(schema) : db) as unknown as Kysely<Record<typeof DEFAULT_MIGRATION_TABLE, { name: string }>>;
  try {
    return new Set((await from.selectFrom(DEFAULT_MIGRATION_TABLE).select('name').execute()).map((row) => row.name));
  } catch {
    return null;
  }
}

export async function migrateToLatest(db: Kysely<Database>, dialect: DatabaseDialect): Promise<void> {
  const migrationTableSchema = await migrationSchema(db, dialect);
  const applied = await appliedMigrations(db, migrationTableSchema);
  const names = Object.keys(migrations);
  // an installed console of this release (the usual start) has nothing to migrate; anything else (a new database, a
  // newer release, migrations this release does not know) goes through the migrator, which also refuses the last
  if (!applied || applied.size !== names.length || !names.every((name) => applied.has(name))) {
    const migrator = new Migrator({ db, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(`Database migration ${failed} failed`, { cause: error });
    }
  }
  // after every start's migrations: a screen declared since the last start gets its indexes (and search indexes).
  // SQLite keeps what the last pass was made from in its user_version: a start of the same release skips the pass
  // (it reads the shape of every table, a tenth of an installed console's start on a small machine)
  const made = dialect === 'sqlite' ? indexFingerprint(names) : null;
  if (made !== null && (await sql<{ user_version: number }>`pragma user_version`.execute(db)).rows[0]?.user_version === made) return;
  await ensureDeclaredIndexes(db, dialect);
  await ensureSearchIndexes(db, dialect);
  if (made !== null) await sql.raw(`pragma user_version = ${made}`).execute(db);
}

/** A non-zero 32-bit number naming the migrations and the indexes and search columns the declarations want. */
function indexFingerprint(migrationNames: readonly string[]): number {
  const wanted = JSON.stringify([migrationNames, wantedIndexes(), [...searchColumns()]]);
  return createHash('sha256').update(wanted).digest().readInt32BE(0) || 1;
}
