import { DEVICE_ROLE_TYPES, detailShape, KEY_ROLE_TYPE, type DetailDeclaration, type EntityDeclaration } from '@isps/contract';

/** A link field's table: one row per (owner, target) pair. */
export interface LinkTable {
  table: string;
  /** column holding the owner's id */
  ownerColumn: string;
  /** column holding the linked row's id */
  targetColumn: string;
}

interface EntityTables {
  table: string;
  /** per link field of the declaration */
  links?: Readonly<Record<string, LinkTable>>;
  /**
   * the entity's rows of a table it shares with another: those whose `column` holds one of `values`. Every statement
   * of the engine keeps to them (`applyScope`), and a new row gets the first value unless a field sets it.
   */
  rows?: { column: string; values: readonly string[] };
  /** per detail of the declaration (`EntityDeclaration.details`, by its name): the lines' table and the column naming their row */
  details?: Readonly<Record<string, DetailTable>>;
}

/** A detail's table: one row per line, its owner's id in `ownerColumn`, its place in `line_no`, its owner's tenant in `tenant_id`. */
export interface DetailTable {
  table: string;
  ownerColumn: string;
}

/**
 * The tables behind the declared entities, by entity name, and behind their link fields: the contract that ships to
 * the browser names entities only, so table names stay on the server (declared-tables.test.ts holds every
 * declaration to an entry here).
 */
export const entityTables: Readonly<Record<string, EntityTables>> = {
  user: {
    table: 'sys_user',
    links: {
      selectedroles: { table: 'sys_user_role', ownerColumn: 'user_id', targetColumn: 'role_id' },
      selecteddeparts: { table: 'sys_user_depart', ownerColumn: 'user_id', targetColumn: 'dep_id' },
      departIds: { table: 'sys_user_depart_head', ownerColumn: 'user_id', targetColumn: 'dep_id' },
    },
  },
  userAgent: { table: 'sys_user_agent' },
  role: { table: 'sys_role' },
  permission: { table: 'sys_permission' },
  dataRule: { table: 'sys_permission_data_rule' },
  depart: { table: 'sys_depart' },
  departRole: { table: 'sys_depart_role' },
  position: { table: 'sys_position' },
  vendor: { table: 'sys_vendor' },
  category: { table: 'sys_category' },
  tenant: { table: 'sys_tenant' },
  dict: { table: 'sys_dict' },
  dictItem: { table: 'sys_dict_item' },
  checkRule: { table: 'sys_check_rule' },
  fillRule: { table: 'sys_fill_rule' },
  dataSource: { table: 'sys_data_source' },
  addressBook: { table: 'sys_user', links: { departs: { table: 'sys_user_depart', ownerColumn: 'user_id', targetColumn: 'dep_id' } } },
  log: { table: 'sys_log' },
  quartzJob: { table: 'sys_quartz_job' },
  jobLog: { table: 'sys_quartz_job_log' },
  dataLog: { table: 'sys_data_log' },
  visitor: { table: 'sys_visitor', links: { roleIds: { table: 'sys_device_role_visitor', ownerColumn: 'visitor_id', targetColumn: 'role_id' } } },
  visitorLogin: { table: 'sys_visitor_login' },
  visit: { table: 'sys_visit', links: { doorIds: { table: 'sys_visit_door', ownerColumn: 'visit_id', targetColumn: 'door_id' } } },
  deviceType: { table: 'sys_device_type' },
  area: { table: 'sys_area' },
  device: { table: 'sys_device' },
  door: { table: 'sys_door', links: { departIds: { table: 'sys_door_depart', ownerColumn: 'door_id', targetColumn: 'depart_id' } } },
  deviceSetting: { table: 'sys_device_setting' },
  deviceRole: {
    table: 'sys_device_role',
    rows: { column: 'role_type', values: DEVICE_ROLE_TYPES },
    links: {
      areaIds: { table: 'sys_device_role_area', ownerColumn: 'role_id', targetColumn: 'area_id' },
      deviceIds: { table: 'sys_device_role_device', ownerColumn: 'role_id', targetColumn: 'device_id' },
      doorIds: { table: 'sys_device_role_door', ownerColumn: 'role_id', targetColumn: 'door_id' },
      departIds: { table: 'sys_device_role_depart', ownerColumn: 'role_id', targetColumn: 'depart_id' },
      userIds: { table: 'sys_device_role_user', ownerColumn: 'role_id', targetColumn: 'user_id' },
      peopleIds: { table: 'sys_device_role_people', ownerColumn: 'role_id', targetColumn: 'people_id' },
    },
  },
  people: { table: 'sys_people', links: { roleIds: { table: 'sys_device_role_people', ownerColumn: 'people_id', targetColumn: 'role_id' } } },
  accessEvent: { table: 'sys_access_event' },
  doorEvent: { table: 'sys_door_event' },
  softUpdate: { table: 'sys_soft_update' },
  deviceRunLog: { table: 'sys_device_run_log' },
  alarm: { table: 'sys_device_alarm' },
  devicePlugin: { table: 'sys_device_plugin' },
  pluginData: { table: 'sys_plugin_data' },
  deviceLogFile: { table: 'sys_device_log_file' },
  fileStorage: { table: 'sys_file' },
  alarmPackage: { table: 'sys_alarm_package' },
  cabinet: { table: 'sys_cabinet', links: { peopleIds: { table: 'sys_cabinet_people', ownerColumn: 'cabinet_id', targetColumn: 'people_id' } } },
  cabinetRecord: { table: 'sys_cabinet_record' },
  storageManager: { table: 'sys_storage_manager', links: { deviceIds: { table: 'sys_storage_manager_device', ownerColumn: 'manager_id', targetColumn: 'device_id' } } },
  storageAppDevice: { table: 'sys_storage_app_device' },
  storageCheckUpdate: { table: 'sys_storage_check_update' },
  key: { table: 'sys_key' },
  patrolRoute: { table: 'sys_patrol_route' },
  patrolPoint: { table: 'sys_patrol_point' },
  patrolMission: { table: 'sys_patrol_mission' },
  patrolTask: { table: 'sys_patrol_task' },
  patrolQuest: { table: 'sys_patrol_quest' },
  patrolRecord: { table: 'sys_patrol_record' },
  keyPeople: { table: 'sys_key_people' },
  doorSchedule: { table: 'sys_door_schedule', links: { doorIds: { table: 'sys_door_schedule_door', ownerColumn: 'schedule_id', targetColumn: 'door_id' } } },
  // the device roles of the key kind: the same table as deviceRole, their rows apart (`rows`)
  keyRole: {
    table: 'sys_device_role',
    rows: { column: 'role_type', values: [KEY_ROLE_TYPE] },
    links: {
      keyIds: { table: 'sys_device_role_key', ownerColumn: 'role_id', targetColumn: 'key_id' },
      departIds: { table: 'sys_device_role_depart', ownerColumn: 'role_id', targetColumn: 'depart_id' },
      peopleIds: { table: 'sys_device_role_people', ownerColumn: 'role_id', targetColumn: 'people_id' },
      userIds: { table: 'sys_device_role_user', ownerColumn: 'role_id', targetColumn: 'user_id' },
    },
  },
  // attendance: the device area's rules and the system area's are one table
  oaRule: { table: 'sys_attendance_rule', links: { departIds: { table: 'sys_attendance_rule_depart', ownerColumn: 'rule_id', targetColumn: 'depart_id' } } },
  attendanceRule: { table: 'sys_attendance_rule', links: { departIds: { table: 'sys_attendance_rule_depart', ownerColumn: 'rule_id', targetColumn: 'depart_id' } } },
  attendance: { table: 'sys_attendance_day' },
  attendanceMonth: { table: 'sys_attendance_month' },
  webhook: { table: 'sys_webhook' },
  // the origin's one-to-many demo: orders, their customers and their tickets
  order: {
    table: 'jeecg_order_main',
    details: {
      jeecgOrderCustomerList: { table: 'jeecg_order_customer', ownerColumn: 'order_id' },
      jeecgOrderTicketList: { table: 'jeecg_order_ticket', ownerColumn: 'order_id' },
    },
  },
};

function tablesOf(name: string): EntityTables {
  const found = Object.hasOwn(entityTables, name) ? entityTables[name] : undefined;
  // a declaration without its table is a wiring mistake, caught by declared-tables.test.ts before any request
  if (!found) throw new Error(`No table declared for entity ${name}`);
  return found;
}

/** A screen declared outside the product's contract (a test's probe) names its own table. */
export type EntityWithTable = EntityDeclaration & { table: string };

/** The table of a declared entity (by its declaration or its name). */
export function tableOf(entity: Pick<EntityDeclaration, 'name'> | string): string {
  if (typeof entity !== 'string' && 'table' in entity && typeof entity.table === 'string') return entity.table;
  return tablesOf(typeof entity === 'string' ? entity : entity.name).table;
}

/** Which rows of its table an entity keeps to, when it shares the table (`EntityTables.rows`). */
export function rowsOf(entity: Pick<EntityDeclaration, 'name'>): EntityTables['rows'] {
  return Object.hasOwn(entityTables, entity.name) ? entityTables[entity.name]!.rows : undefined;
}

/** The table of an entity's detail. */
export function detailTableOf(entity: Pick<EntityDeclaration, 'name'>, detail: string): DetailTable {
  const found = tablesOf(entity.name).details?.[detail];
  if (!found) throw new Error(`No detail table declared for ${entity.name}.${detail}`);
  return found;
}

/** The link table of an entity's link field. */
export function linkOf(entity: Pick<EntityDeclaration, 'name'>, field: string): LinkTable {
  const link = tablesOf(entity.name).links?.[field];
  if (!link) throw new Error(`No link table declared for ${entity.name}.${field}`);
  return link;
}

/** The first declared entity kept in `table` (a data log names the table of the row it copies). */
export function entityOfTable(table: string): string | undefined {
  return Object.entries(entityTables).find(([, t]) => t.table === table)?.[0];
}

/** One detail of a declaration as the engine works with it: its declaration, its lines' shape and its table. */
export interface DetailRuntime {
  detail: DetailDeclaration;
  /** the lines as a declaration of their own, for the helpers that read fields */
  shape: EntityDeclaration;
  table: string;
  ownerColumn: string;
  /** the owner's id in an answered line, as the origin names it ('orderId') */
  ownerField: string;
}

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The details of a declaration with their tables. */
export function detailRuntimes(entity: EntityDeclaration): DetailRuntime[] {
  return (entity.details ?? []).map((detail) => {
    const { table, ownerColumn } = detailTableOf(entity, detail.name);
    return { detail, shape: detailShape(entity, detail), table, ownerColumn, ownerField: camel(ownerColumn) };
  });
}

