/** Row shapes of the tables, as Kysely sees them. Times are UTC ISO strings; flags are integers 0/1. */
interface Audited {
  id: string;
  create_by: string | null;
  create_time: string | null;
  update_by: string | null;
  update_time: string | null;
}

export interface SysUser extends Audited {
  username: string;
  realname: string;
  nickname: string | null;
  password: string;
  avatar: string | null;
  birthday: string | null;
  sex: number | null;
  email: string | null;
  phone: string | null;
  org_code: string | null;
  status: number;
  del_flag: number;
  work_no: string | null;
  must_change_password: number;
  tenant_id: string | null;
  /** the console language the user chose (migration 1501); null until they choose */
  lang: string | null;
  /** 1 ordinary, 2 superior (migration 1640; the column's default when an insert leaves it out) */
  user_identity: import('kysely').ColumnType<number, number | undefined, number>;
}

export interface SysRole extends Audited {
  role_name: string;
  role_code: string;
  role_type: number;
  description: string | null;
  tenant_id: string | null;
}

export interface SysUserRole extends Audited {
  user_id: string;
  role_id: string;
}

export interface SysPermission extends Audited {
  parent_id: string | null;
  name: string;
  url: string | null;
  component: string | null;
  component_name: string | null;
  redirect: string | null;
  menu_type: number;
  perms: string | null;
  perms_type: string | null;
  sort_no: number;
  always_show: number;
  icon: string | null;
  is_route: number;
  is_leaf: number;
  keep_alive: number;
  hidden: number;
  internal_or_external: number;
  status: string;
  del_flag: number;
}

export interface SysRolePermission extends Audited {
  role_id: string;
  permission_id: string;
}

export interface SysDepart extends Audited {
  parent_id: string | null;
  depart_name: string;
  org_code: string;
  org_type: string | null;
  depart_order: number;
  mobile: string | null;
  /** migration 1690 */
  fax: string | null;
  address: string | null;
  memo: string | null;
  del_flag: number;
  tenant_id: string | null;
  /** 1: a patrol group (it walks patrol missions); 0 by default (migration 1630) */
  patrol_group: import('kysely').ColumnType<number, number | undefined, number>;
  /** when the group patrols (a time setting as JSON text; empty: always) */
  time_setting: string | null;
}

export interface SysUserDepart extends Audited {
  user_id: string;
  dep_id: string;
}

export interface SysDict extends Audited {
  dict_name: string;
  dict_code: string;
  description: string | null;
  del_flag: number;
}

export interface SysDictItem extends Audited {
  dict_id: string;
  item_text: string;
  item_value: string;
  description: string | null;
  sort_order: number;
  status: number;
}

export interface SysTenant extends Audited {
  name: string;
  code: string;
  begin_date: string | null;
  end_date: string | null;
  status: number;
  /** SelfRegister: 0 off, 1 open, 2 with approval */
  self_register: import('kysely').ColumnType<number, number | undefined, number>;
}

export interface SysUserToken extends Audited {
  user_id: string;
  token_hash: string;
  expires_at: string;
}

export interface SysUserAgent extends Audited {
  user_name: string;
  agent_user_name: string;
  start_time: string;
  end_time: string;
  status: number;
  tenant_id: string | null;
}

export interface SysPermissionDataRule extends Audited {
  permission_id: string;
  rule_name: string;
  rule_column: string;
  rule_conditions: string;
  rule_value: string;
  status: string;
}

export interface SysRoleDataRule extends Audited {
  role_id: string;
  permission_id: string;
  rule_id: string;
}

export interface SysQuartzJob extends Audited {
  job_class_name: string;
  cron_expression: string;
  parameter: string | null;
  description: string | null;
  status: number;
}

export interface SysQuartzJobLog extends Audited {
  job_id: string;
  fire_time: string;
  manual: number;
  cost_ms: number | null;
  success: number | null;
  message: string | null;
  instance: string;
}

export interface SysDataLog extends Audited {
  data_table: string;
  data_id: string;
  data_content: string;
  data_version: number;
  /** the tenant of the row it copies (tenant-scoped tables), else of the user who changed it */
  tenant_id: string | null;
}

export interface SysLog extends Audited {
  log_type: number;
  operate_type: number;
  content: string;
  userid: string | null;
  username: string | null;
  ip: string | null;
  cost_time: number;
  /** the acting user's tenant (null for users without one) */
  tenant_id: string | null;
  /** JSON `{ key, params }` of the entry's message; null on entries written as plain text */
  log_params: string | null;
}

export interface SysPosition extends Audited {
  code: string;
  name: string;
  post_rank: string;
  tenant_id: string | null;
}

export interface SysVendor extends Audited {
  trade_name: string;
  gather_offset: number | null;
  tenant_id: string | null;
}

export interface SysCategory extends Audited {
  pid: string | null;
  name: string;
  code: string;
  tenant_id: string | null;
}

export interface SysCheckRule extends Audited {
  rule_name: string;
  rule_code: string;
  rule_json: string;
  rule_description: string | null;
}

export interface SysFillRule extends Audited {
  rule_name: string;
  rule_code: string;
  rule_class: string;
  rule_params: string | null;
}

export interface SysDataSource extends Audited {
  name: string;
  code: string;
  db_type: string;
  db_driver: string | null;
  db_url: string;
  db_name: string | null;
  db_username: string;
  /** AES-256-GCM ciphertext (platform/secret-box.ts), never the clear password */
  db_password: string | null;
  remark: string | null;
}

export interface SysAnnouncement extends Audited {
  titile: string;
  /** sanitised HTML */
  msg_content: string | null;
  /** the author's plain-text abstract (origin `msgAbstract`) */
  msg_abstract: string | null;
  start_time: string | null;
  end_time: string | null;
  sender: string | null;
  priority: string;
  msg_category: string;
  msg_type: string;
  /** comma-separated user ids when msg_type is USER */
  user_ids: string | null;
  send_status: string;
  send_time: string | null;
  cancel_time: string | null;
  open_type: string | null;
  open_page: string | null;
  bus_id: string | null;
  type: string;
  theme: string | null;
  channels: string | null;
  background_image: string | null;
  attachments: string | null;
  video: string | null;
  del_flag: number;
  tenant_id: string | null;
}

export interface SysAnnouncementSend extends Audited {
  annt_id: string;
  user_id: string;
  read_flag: number;
  read_time: string | null;
  /** the tenant of its announcement */
  tenant_id: string | null;
}

export interface SysMessage extends Audited {
  es_title: string;
  es_content: string | null;
  es_param: string | null;
  es_receiver: string;
  es_type: string;
  es_send_status: string;
  es_send_num: number;
  es_result: string | null;
  es_send_time: string | null;
  remark: string | null;
  tenant_id: string | null;
}

export interface SysMessageTemplate extends Audited {
  template_code: string;
  template_name: string;
  template_content: string;
  template_type: string;
  template_test_json: string | null;
  tenant_id: string | null;
}

/** An upload, by the path its upload answered, and the tenant it belongs to. */
export interface SysFile extends Audited {
  file_path: string;
  tenant_id: string | null;
  /** bytes on disk (0 for files stored before sizes were recorded) */
  file_size: number;
  /** the name it was uploaded under and its extension, as the file storage list shows them */
  file_name: string | null;
  file_type: string | null;
}

export interface SysSetting extends Audited {
  setting_key: string;
  setting_value: string | null;
}

export interface SysUserTotp extends Audited {
  user_id: string;
  /** sealed by the secret box */
  secret: string;
  confirmed: number;
  last_step: number | null;
}

export interface SysActivationCode extends Audited {
  /** SHA-256 of the code; the code itself is shown once when issued */
  code_hash: string;
  authorized_until: string;
  expires_at: string;
  used_at: string | null;
}

export interface SysVisitor extends Audited {
  name: string;
  id_card: string;
  /** IdType: 1 resident ID card, 2 passport, 3 other */
  id_type: import('kysely').ColumnType<string, string | undefined, string>;
  phone: string;
  password: string;
  category: string;
  user_id: string | null;
  status: number;
  del_flag: number;
  tenant_id: string | null;
  /** the full number, for the devices only: rows show `card_no_masked` */
  card_no: import('kysely').ColumnType<string | null, string | null | undefined, string | null>;
  card_no_masked: import('kysely').ColumnType<string | null, string | null | undefined, string | null>;
  user_no: import('kysely').ColumnType<string | null, string | null | undefined, string | null>;
  sex: import('kysely').ColumnType<number | null, number | null | undefined, number | null>;
  depart_id: import('kysely').ColumnType<string | null, string | null | undefined, string | null>;
  picture: import('kysely').ColumnType<string | null, string | null | undefined, string | null>;
  palm_left: import('kysely').ColumnType<number, number | undefined, number>;
  palm_right: import('kysely').ColumnType<number, number | undefined, number>;
}

/** A visit: a visitor, the user he visits, the window in which the visit's doors let him through. */
export interface SysVisit extends Audited {
  visitor_id: string;
  host_id: string;
  start_time: string;
  end_time: string;
  remark: string | null;
  /** set once each, by the sweep that re-runs the access sync at the window's edges */
  start_synced: import('kysely').ColumnType<number, number | undefined, number>;
  end_synced: import('kysely').ColumnType<number, number | undefined, number>;
  /** set once, by the statement that tells the host of the first opening */
  first_open_time: import('kysely').ColumnType<string | null, string | null | undefined, string | null>;
  tenant_id: string | null;
  /** VisitState: requested (by the visitor), approved (staff visits, and the host's approval), refused */
  state: import('kysely').ColumnType<string, string | undefined, string>;
  refuse_reason: import('kysely').ColumnType<string | null, string | null | undefined, string | null>;
}

/** A message to a visitor: message keys and their parameters (JSON), rendered in the reader's language. */
export interface SysVisitorMessage extends Audited {
  visitor_id: string;
  visit_id: string | null;
  title_key: string;
  body_key: string;
  params: string;
  read_flag: import('kysely').ColumnType<number, number | undefined, number>;
  tenant_id: string | null;
}

/** One visitor sign-in: who (when known), from where, how, and whether it was let in. */
export interface SysVisitorLogin extends Audited {
  visitor_id: string | null;
  visitor_name: string | null;
  /** the account typed (a phone or ID number), last four characters only */
  account_masked: string | null;
  ip: string | null;
  /** VisitorLoginMethod */
  method: string;
  /** 1 signed in, 0 refused */
  result: number;
  tenant_id: string | null;
}

export interface SysPeople extends Audited {
  name: string;
  id_card: string | null;
  /** IdType: 1 resident ID card, 2 passport, 3 other */
  id_type: import('kysely').ColumnType<string, string | undefined, string>;
  /** the full number, for the devices only: rows show `card_no_masked` */
  card_no: string | null;
  card_no_masked: string | null;
  user_no: string | null;
  sex: number | null;
  depart_id: string | null;
  picture: string | null;
  palm_left: number;
  palm_right: number;
  /** hashed */
  password: string | null;
  status: number;
  del_flag: number;
  tenant_id: string | null;
}

/** A palm-vein template of one hand; read only by the device sync, never by a list, export or log. */
export interface SysPeoplePalm extends Audited {
  people_id: string;
  hand: string;
  template: string;
}

export interface SysVisitorToken extends Audited {
  visitor_id: string;
  token_hash: string;
  expires_at: string;
}

export interface SysDepartPermission extends Audited {
  depart_id: string;
  permission_id: string;
}

export interface SysDepartRole extends Audited {
  depart_id: string;
  role_name: string;
  role_code: string;
  description: string | null;
  tenant_id: string | null;
}

export interface SysDepartRolePermission extends Audited {
  depart_id: string;
  role_id: string;
  permission_id: string;
}

export interface SysDepartDataRule extends Audited {
  depart_id: string;
  permission_id: string;
  rule_id: string;
}

export interface SysDepartRoleDataRule extends Audited {
  depart_id: string;
  role_id: string;
  permission_id: string;
  rule_id: string;
}

export interface SysDepartRoleUser extends Audited {
  user_id: string;
  drole_id: string;
}

export interface SysDeviceType extends Audited {
  type_name: string;
  manufacturer_id: string | null;
  device_model: string | null;
  /** 1 enabled, 2 disabled */
  status: number;
  handler: string | null;
  tenant_id: string | null;
}

export interface SysArea extends Audited {
  area_name: string;
  parent_id: string | null;
  address: string | null;
  remark: string | null;
  tenant_id: string | null;
  /** the stored path of the area's floor-plan image (1730; null: none) */
  floor_plan?: string | null;
}

export interface SysDevice extends Audited {
  device_name: string;
  sn: string;
  mac: string | null;
  ip: string | null;
  gateway: string | null;
  subnet_mask: string | null;
  /** the device system (AB door, access control, storage, quake alarm) */
  system_type: string | null;
  device_type_id: string | null;
  device_model: string | null;
  background_image: string | null;
  /** 1 inside, 2 outside */
  location: number | null;
  area_id: string | null;
  /** 1 online, 0 offline */
  online: number;
  last_seen: string | null;
  /** the device's current MQTT session: a last will of an older session is ignored */
  session_id: string | null;
  firmware: string | null;
  tenant_id: string | null;
  /** controller, camera or vein device (dictionary device_kind) */
  device_kind?: string | null;
  /** how many doors the controller's hellos have reported (their doors were created then; null: none reported) */
  reported_doors?: number | null;
  /** inSync, pending, failed (SyncStatus), kept by the access sync from the command queue */
  sync_state?: string;
  /** people changes waiting for the device */
  sync_pending?: number;
  /** why the last batch failed, while failed */
  sync_reason?: string | null;
  /** when the device last held its whole list (ISO) */
  sync_aligned_time?: string | null;
  /** 1 for the capture device of its tenant (default 0) */
  capture?: number;
  /** how many people the device holds at most (null: no limit); the access sync leaves the rest out and says so */
  max_people?: number | null;
  /** data sync mode: 'increment' (the default) sends the differences, 'full' replaces the whole access list */
  sync_mode?: string;
  /** how many cabinets a cabinet device's hellos have reported (null: none) */
  reported_cabinets?: number | null;
  /** the version of the key list a key cabinet was last sent (migration 1610; null: never) */
  keys_sent_version?: string | null;
  /** device clock minus server clock in ms, as the last hello or heartbeat measured it (bigint: PostgreSQL answers a string) */
  clock_offset_ms?: number | string | null;
  /** the version of the door schedule list the device was last sent (1650) */
  schedules_sent_version?: string | null;
}

export interface SysDeviceCode extends Audited {
  sn: string;
  activation_code: string;
  authorization_code: string | null;
  /** 0 to be audited, 1 agree, 2 disagree */
  audit_status: number;
  audit_by: string | null;
  audit_time: string | null;
  /** SHA-256 of the device key issued with the approved code; the key itself is shown once */
  device_key_hash: string | null;
  key_issued_time: string | null;
  /** the key a rotation replaced: valid until the device acknowledges the new one, at most until previous_key_until */
  previous_key_hash: string | null;
  previous_key_until: string | null;
  remark: string | null;
  tenant_id: string | null;
}

export interface SysDoor extends Audited {
  door_name: string;
  device_id: string;
  door_no: number;
  area_id: string | null;
  state: number;
  state_time: string | null;
  tenant_id: string | null;
}

export interface SysDoorDepart extends Audited {
  door_id: string;
  depart_id: string;
}

export interface SysDeviceSetting extends Audited {
  params_title: string;
  field_name: string;
  field_value: string;
  effective_time: string | null;
  invalid_time: string | null;
  /** 1 or 2 digits; below 5 a default */
  weight: number;
  area_id: string | null;
  device_model: string | null;
  /** values separated by | */
  listen_value: string | null;
  tenant_id: string | null;
}

export interface SysDeviceCommand extends Audited {
  device_id: string;
  kind: string;
  payload: string | null;
  /** pending, sent, acked, failed, expired */
  status: string;
  attempts: number;
  next_try: string | null;
  sent_time: string | null;
  acked_time: string | null;
  result: string | null;
  /** past this time the command is never delivered (null: it waits for its device) */
  expire_time: string | null;
  tenant_id: string | null;
}

/** What the access sync has sent a device: one bucket of people (by the first two characters of their id) per row. */
export interface SysDeviceAccess extends Audited {
  device_id: string;
  bucket: string;
  /** `id:version` lines in id order */
  entries: string;
}

/** An opening, denial or door state a device reported (never a card number). */
export interface SysAccessEvent extends Audited {
  device_id: string;
  /** bigint: PostgreSQL answers it as a string */
  seq: number | string;
  event_time: string;
  kind: string;
  /** 1 passed, 0 refused, null for a door state */
  result: number | null;
  people_id: string | null;
  door_id: string | null;
  door_no: number | null;
  method: string | null;
  detail: string | null;
  /** the server's decision of an opening or denial: allowed, refused, unknown (no person); null for a door state */
  server_verdict?: string | null;
  /** 1 for an opening the server would have refused */
  flagged?: number;
  /** the card the device named, masked (never the whole number) */
  card_no_masked?: string | null;
  tenant_id: string | null;
}

/** A door's state as its device reported it (`doorState` events), kept apart from the passages of people. */
export interface SysDoorEvent extends Audited {
  device_id: string;
  /** bigint: PostgreSQL answers it as a string */
  seq: number | string;
  event_time: string;
  door_id: string | null;
  door_no: number | null;
  /** open, closed, alarm */
  state: string | null;
  tenant_id: string | null;
}

export interface SysCabinet extends Audited {
  device_id: string;
  cabinet_no: number;
  /** CabinetStatus: 0 unassigned, 1 assigned, 2 assignable (emptied on the device) */
  status: number;
  /** 1 one person, 2 several */
  attribute: number;
  /** when the allocation ends (ISO, UTC); null: until released */
  expire_time: string | null;
  release_in_emergency: number;
  remark: string | null;
  /** what the device is to hold: a new value with every allocation, release or clearing (null: never allocated) */
  version: string | null;
  /** the version last queued to the device (null: never) */
  sent_version: string | null;
  expiry_notified: number;
  tenant_id: string | null;
}

/** A key in a slot of a key cabinet (migration 1610). */
export interface SysKey extends Audited {
  key_name: string;
  device_id: string;
  slot_no: number;
  /** KeyStatus: 0 in the cabinet, 1 taken */
  status: number;
  /** who took it (the person of its open take) */
  holder_id: string | null;
  taken_time: string | null;
  /** 1 while its open take is overdue */
  overdue: number;
  release_in_emergency: number;
  description: string | null;
  tenant_id: string | null;
}

/** A person who may take keys. */
export interface SysKeyPeople extends Audited {
  people_id: string;
  remark: string | null;
  tenant_id: string | null;
}

/** One take of a key (by the device's event sequence number), and its return. */
export interface SysKeyRecord extends Audited {
  key_id: string | null;
  device_id: string;
  seq: number;
  slot_no: number;
  take_time: string;
  return_time: string | null;
  people_id: string | null;
  id_card: string | null;
  method: string | null;
  overdue_time: string | null;
  alarm_id: string | null;
  tenant_id: string | null;
}

export interface SysCabinetPeople extends Audited {
  cabinet_id: string;
  people_id: string;
}

export interface SysCabinetRecord extends Audited {
  device_id: string;
  /** the opening event's sequence number (bigint: PostgreSQL answers it as a string) */
  seq: number | string;
  cabinet_id: string | null;
  cabinet_no: number;
  open_time: string;
  close_time: string | null;
  /** the card used, masked (its last four characters) */
  id_card: string | null;
  people_id: string | null;
  method: string | null;
  tenant_id: string | null;
}

export interface SysStorageManager extends Audited {
  /** the manager's user name */
  user_name: string;
  remark: string | null;
  tenant_id: string | null;
}

export interface SysStorageAppDevice extends Audited {
  device_id: string;
  app_version: string | null;
  version_code: number | null;
  last_check_time: string | null;
  remark: string | null;
  tenant_id: string | null;
}

export interface SysStorageCheckUpdate extends Audited {
  version_name: string;
  version_code: number;
  device_model: string | null;
  /** the stored package; a version without one is not offered */
  package_file: string | null;
  force_update: number;
  description: string | null;
  tenant_id: string | null;
}

export interface SysDeviceEvent extends Audited {
  device_id: string;
  /** bigint: PostgreSQL answers it as a string */
  seq: number | string;
  device_time: string;
  kind: string;
  payload: string | null;
  tenant_id: string | null;
}

export interface SysDeviceRole extends Audited {
  role_name: string;
  /** device_role_type: 1 door access, 2 device manager, 3 attendance, 4 patrol */
  role_type: string;
  /** the contract's TimeSetting as JSON text */
  time_setting: string;
  remark: string | null;
  tenant_id: string | null;
}

/** One link of a device role (area, device, door, key, group, user or person) */
export interface SysDeviceRoleLink extends Audited {
  role_id: string;
}

export interface SysSoftUpdate extends Audited {
  version: string;
  device_model: string | null;
  /** the stored package (platform/files.ts): the server's own path, never sent to the console */
  apk_file: string;
  /** the name of the file as it was uploaded */
  file_name: string | null;
  file_size: number;
  /** SHA-256, hex */
  checksum: string;
  update_log: string | null;
  tenant_id: string | null;
}

/** One package pushed to one device: its softUpdate command and how far the device got. */
export interface SysSoftUpdatePush extends Audited {
  update_id: string;
  device_id: string;
  command_id: string;
  progress: number;
  /** SoftUpdateState: 0 queued, 1 running, 2 ok, 3 failed */
  state: number;
  error: string | null;
  finish_time: string | null;
  tenant_id: string | null;
}

/** A run error a device reported (one event). */
/** A log file a device uploaded when asked (sendLog). */
export interface SysDeviceLogFile extends Audited {
  device_id: string;
  file_name: string;
  file_path: string;
  file_size: number;
  upload_time: string;
  tenant_id: string | null;
}

/** A log asked of a device: the upload it may make once, before expire_time, with the token hashed here. */
export interface SysDeviceLogRequest extends Audited {
  device_id: string;
  command_id: string;
  token_hash: string;
  expire_time: string;
  used_time: string | null;
  tenant_id: string | null;
}

export interface SysDeviceRunLog extends Audited {
  device_id: string;
  event_seq: number;
  error_type: string;
  content: string | null;
  code: string | null;
  report_ip: string | null;
  /** 0 unhandled, 1 handled */
  state: number;
  error_time: string;
  tenant_id: string | null;
}

/** An alarm a device raised (one event): 0 open, 1 acknowledged, 2 closed. */
export interface SysDeviceAlarm extends Audited {
  device_id: string;
  event_seq: number;
  code: string;
  level: string;
  state: number;
  alarm_time: string;
  handled_by: string | null;
  handled_time: string | null;
  tenant_id: string | null;
  /** how many alarm events of this code the device raised while the alarm was not closed (migration 1510) */
  alarm_count: import('kysely').ColumnType<number, number | undefined, number>;
  /** when the last of them was raised */
  last_time: string | null;
  /** `deviceId|code` while not closed (unique: repeats fold into this row), null once closed */
  open_key: string | null;
  /** the device's area when the alarm was raised */
  area_id: string | null;
}

/** Each alarm event of a device once (by sequence number): a repeated delivery is not counted again. */
export interface SysDeviceAlarmEvent extends Audited {
  device_id: string;
  event_seq: number;
  tenant_id: string | null;
}

/** The emergency scenario setting of a tenant (`tenant_key`: the tenant id, or '-' for rows without a tenant). */
export interface SysEmergencySetting extends Audited {
  enabled: number;
  threshold: number;
  /** JSON list of door ids held open in a scenario */
  egress_door_ids: string;
  tenant_key: string;
  tenant_id: string | null;
}

/** A quake scenario: `active_key` holds the tenant key while it runs (unique), null once ended. */
export interface SysEmergency extends Audited {
  device_id: string;
  device_name: string;
  intensity: number;
  pga: number | null;
  reading_time: string;
  door_count: number;
  active_key: string | null;
  end_by: string | null;
  end_time: string | null;
  tenant_id: string | null;
  /** 1: a drill an operator started (migration 1530) */
  drill: number;
  /** the operator of a drill, the sensor's serial number for a quake */
  start_by: string | null;
  /** JSON `[{ id, name }]` of the egress doors it held open */
  doors: string | null;
  /** lockers marked "release in emergency" told to open (migration 1600) */
  cabinet_count?: number;
  /** keys marked "release in emergency" told to free (migration 1610) */
  key_count?: number;
}

/** The roll call of an emergency (migration 1530): one row per person, marked safe or not. */
export interface SysEmergencyRoll extends Audited {
  emergency_id: string;
  people_id: string;
  people_name: string;
  user_no: string | null;
  area_name: string | null;
  door_name: string | null;
  safe_by: string | null;
  safe_time: string | null;
  tenant_id: string | null;
}

export interface SysImportJob extends Audited {
  tenant_id: string | null;
  owner_id: string;
  entity: string;
  /** ImportJobState */
  state: string;
  total: number;
  added: number;
  failed: number;
  cancel_requested: number;
  heartbeat_at: string;
  finished_at: string | null;
  /** message key of why it ended unfinished (interrupted) */
  reason: string | null;
}

export interface SysImportJobRow {
  job_id: string;
  row_no: number;
  success: number;
  /** the stored row's id */
  ref_id: string | null;
  /** why the row was refused, in the importer's language */
  message: string | null;
  /** a refused row's values as read (JSON) */
  cells: string | null;
}

/** A patrol route (SPEC "Patrol route"): `del_flag` is the spec's delStatus. */
export interface SysPatrolRoute extends Audited {
  route_name: string;
  description: string | null;
  status: number;
  del_flag: number;
  /** ISO weekdays (1 Monday … 7 Sunday) joined by commas */
  week_day: string;
  in_order: number;
  /** minutes either side of a point's watch time */
  tolerance: number;
  tenant_id: string | null;
}

/** A point of a route (SPEC "Patrol device"): routeId, deviceId, watchTime (HH:mm in the site's zone). */
export interface SysPatrolPoint extends Audited {
  route_id: string;
  place_name: string;
  device_id: string;
  watch_time: string;
  sort_no: number;
  description: string | null;
  tenant_id: string | null;
}

export interface SysPatrolMission extends Audited {
  mission_name: string;
  route_id: string;
  depart_id: string;
  status: number;
  remark: string | null;
  tenant_id: string | null;
}

export interface SysPatrolTask extends Audited {
  mission_id: string;
  route_id: string;
  depart_id: string | null;
  /** yyyy-MM-dd in the site's zone */
  task_date: string;
  state: string;
  done_count: number;
  total_count: number;
  missed_count: number;
  in_order: number;
  start_time: string;
  end_time: string;
  tenant_id: string | null;
}

export interface SysPatrolQuest extends Audited {
  task_id: string;
  point_id: string;
  device_id: string;
  place_name: string;
  sort_no: number;
  task_date: string;
  expected_time: string;
  window_start: string;
  window_end: string;
  late_until: string;
  result: string;
  out_of_order: number;
  check_time: string | null;
  user_no: string | null;
  people_id: string | null;
  record_id: string | null;
  alarm_id: string | null;
  tenant_id: string | null;
}

export interface SysPatrolRecord extends Audited {
  device_id: string;
  seq: number;
  check_time: string;
  point: string | null;
  point_id: string | null;
  user_no: string | null;
  people_id: string | null;
  result: string;
  guard: number;
  task_id: string | null;
  quest_id: string | null;
  tenant_id: string | null;
}

/** A report mailed on a schedule (migration 1720); its firing is a scheduled job (`reportSchedule`, parameter: this id). */
export interface SysReportSchedule extends Audited {
  report_kind: string;
  /** lastDay, lastWeek, lastMonth */
  period: string;
  /** JSON `ReportFilters` */
  filters: string;
  /** user ids joined by commas */
  recipients: string;
  template_code: string;
  cron_expression: string;
  /** 0 running, -1 stopped (as jobs) */
  status: number;
  job_id: string | null;
  last_send_time: string | null;
  last_result: string | null;
  /** the language of its author, for the recipients who chose none */
  lang: string | null;
  tenant_id: string | null;
}

export interface Database {
  sys_import_job: SysImportJob;
  sys_import_job_row: SysImportJobRow;
  sys_user: SysUser;
  sys_role: SysRole;
  sys_user_role: SysUserRole;
  sys_permission: SysPermission;
  sys_role_permission: SysRolePermission;
  sys_depart: SysDepart;
  sys_user_depart: SysUserDepart;
  /** the groups a superior is responsible for (the origin's user `departIds`) */
  sys_user_depart_head: SysUserDepart;
  sys_depart_permission: SysDepartPermission;
  sys_depart_role: SysDepartRole;
  sys_depart_role_permission: SysDepartRolePermission;
  sys_depart_role_user: SysDepartRoleUser;
  sys_depart_data_rule: SysDepartDataRule;
  sys_depart_role_data_rule: SysDepartRoleDataRule;
  sys_dict: SysDict;
  sys_dict_item: SysDictItem;
  sys_tenant: SysTenant;
  sys_user_token: SysUserToken;
  sys_user_agent: SysUserAgent;
  sys_permission_data_rule: SysPermissionDataRule;
  sys_role_data_rule: SysRoleDataRule;
  sys_quartz_job: SysQuartzJob;
  sys_quartz_job_log: SysQuartzJobLog;
  sys_data_log: SysDataLog;
  sys_log: SysLog;
  sys_position: SysPosition;
  sys_vendor: SysVendor;
  sys_category: SysCategory;
  sys_check_rule: SysCheckRule;
  sys_fill_rule: SysFillRule;
  sys_data_source: SysDataSource;
  sys_announcement: SysAnnouncement;
  sys_announcement_send: SysAnnouncementSend;
  sys_message: SysMessage;
  sys_message_template: SysMessageTemplate;
  sys_file: SysFile;
  sys_setting: SysSetting;
  sys_user_totp: SysUserTotp;
  sys_activation_code: SysActivationCode;
  sys_visitor: SysVisitor;
  sys_visitor_token: SysVisitorToken;
  sys_people: SysPeople;
  sys_people_palm: SysPeoplePalm;
  sys_visit: SysVisit;
  sys_visitor_login: SysVisitorLogin;
  sys_visitor_message: SysVisitorMessage;
  sys_visit_door: Audited & { visit_id: string; door_id: string };
  sys_device_role_visitor: SysDeviceRoleLink & { visitor_id: string };
  sys_device_type: SysDeviceType;
  sys_area: SysArea;
  sys_device: SysDevice;
  sys_device_code: SysDeviceCode;
  sys_door: SysDoor;
  sys_door_depart: SysDoorDepart;
  sys_device_role: SysDeviceRole;
  sys_device_role_area: SysDeviceRoleLink & { area_id: string };
  sys_device_role_device: SysDeviceRoleLink & { device_id: string };
  sys_device_role_door: SysDeviceRoleLink & { door_id: string };
  sys_device_role_key: SysDeviceRoleLink & { key_id: string };
  sys_device_role_depart: SysDeviceRoleLink & { depart_id: string };
  sys_device_role_user: SysDeviceRoleLink & { user_id: string };
  sys_device_role_people: SysDeviceRoleLink & { people_id: string };
  sys_device_setting: SysDeviceSetting;
  sys_device_command: SysDeviceCommand;
  sys_device_access: SysDeviceAccess;
  sys_access_event: SysAccessEvent;
  sys_door_event: SysDoorEvent;
  sys_device_event: SysDeviceEvent;
  sys_soft_update: SysSoftUpdate;
  sys_soft_update_push: SysSoftUpdatePush;
  sys_device_run_log: SysDeviceRunLog;
  sys_device_log_file: SysDeviceLogFile;
  sys_device_log_request: SysDeviceLogRequest;
  sys_device_alarm: SysDeviceAlarm;
  sys_device_alarm_event: SysDeviceAlarmEvent;
  sys_emergency_setting: SysEmergencySetting;
  sys_emergency: SysEmergency;
  sys_emergency_roll: SysEmergencyRoll;
  sys_cabinet: SysCabinet;
  sys_cabinet_people: SysCabinetPeople;
  sys_cabinet_record: SysCabinetRecord;
  sys_storage_manager: SysStorageManager;
  sys_storage_manager_device: { id: string; create_by: string | null; create_time: string | null; update_by: string | null; update_time: string | null; manager_id: string; device_id: string };
  sys_storage_app_device: SysStorageAppDevice;
  sys_storage_check_update: SysStorageCheckUpdate;
  sys_key: SysKey;
  sys_key_people: SysKeyPeople;
  sys_key_record: SysKeyRecord;
  sys_patrol_route: SysPatrolRoute;
  sys_patrol_point: SysPatrolPoint;
  sys_patrol_mission: SysPatrolMission;
  sys_patrol_task: SysPatrolTask;
  sys_patrol_quest: SysPatrolQuest;
  sys_patrol_record: SysPatrolRecord;
  sys_attendance_rule: SysAttendanceRule;
  sys_attendance_rule_depart: SysAttendanceRuleDepart;
  sys_attendance_punch: SysAttendancePunch;
  sys_attendance_calendar: SysAttendanceCalendar;
  sys_attendance_day: SysAttendanceDay;
  sys_attendance_month: SysAttendanceMonth;
  sys_door_schedule: SysDoorSchedule;
  sys_report_schedule: SysReportSchedule;
  sys_door_schedule_door: Audited & { schedule_id: string; door_id: string };
  sys_floor_plan_item: SysFloorPlanItem;
  sys_webhook: SysWebhook;
  sys_webhook_delivery: SysWebhookDelivery;
  sys_api_key: SysApiKey;
  sys_api_key_use: SysApiKeyUse;
  jeecg_order_main: JeecgOrderMain;
  jeecg_order_customer: JeecgOrderCustomer;
  jeecg_order_ticket: JeecgOrderTicket;
}

// Attendance (migration 1620) ---------------------------------------------------------------------------------------

export interface SysAttendanceRule extends Audited {
  rule_name: string;
  work_time: string;
  off_work_time: string;
  absent_minutes: number;
  rest_weekdays: string | null;
  duplicate_seconds: number;
  fest_new_year: string | null;
  fest_spring: string | null;
  fest_ching_ming: string | null;
  fest_may_day: string | null;
  fest_dragon_boat: string | null;
  fest_mid_autumn: string | null;
  fest_national_day: string | null;
  holidays: string | null;
  workdays: string | null;
  remark: string | null;
  tenant_id: string | null;
}

/** A group a rule applies to (a group has at most one rule) */
export interface SysAttendanceRuleDepart extends Audited {
  rule_id: string;
  depart_id: string;
}

export interface SysAttendancePunch extends Audited {
  device_id: string;
  seq: number | string;
  people_id: string;
  punch_time: string;
  raw_time: string;
  day_index: number;
  minute: number;
  source: string;
  duplicate: number;
  tenant_id: string | null;
}

export interface SysAttendanceCalendar extends Audited {
  rule_id: string;
  day_index: number;
  day: string;
  month: string;
  kind: number;
  work_min: number;
  off_min: number;
  absent_min: number;
  split_min: number;
  tenant_id: string | null;
}

export interface SysAttendanceDay extends Audited {
  people_id: string;
  depart_id: string | null;
  rule_id: string | null;
  day_index: number;
  day: string;
  month: string;
  status: number;
  check_in: string | null;
  check_out: string | null;
  punch_count: number;
  corrected: number;
  correction_reason: string | null;
  tenant_id: string | null;
}

export interface SysAttendanceMonth extends Audited {
  month: string;
  user_id: string;
  user_name: string | null;
  depart_id: string | null;
  work_days: number;
  normal_count: number;
  late_count: number;
  absense_count: number;
  leave_early_count: number;
  miss_card_count: number;
  tenant_id: string | null;
}

/** A door schedule (1650): its doors stand unlocked while the time setting is in force, when enabled. */
export interface SysDoorSchedule extends Audited {
  schedule_name: string;
  /** the contract's TimeSetting as JSON text */
  time_setting: string;
  enabled: number;
  remark: string | null;
  tenant_id: string | null;
}

/** A door or device placed on its area's floor plan (1730): x and y in ten-thousandths of the image's width and height. */
export interface SysFloorPlanItem extends Audited {
  area_id: string;
  /** door or device (FloorPlanItemKind) */
  item_kind: string;
  item_id: string;
  x: number;
  y: number;
  tenant_id: string | null;
}

// Webhooks (migration 1760) -----------------------------------------------------------------------------------------

/** A webhook subscription of a tenant. */
export interface SysWebhook extends Audited {
  name: string;
  url: string;
  /** event kinds joined by commas */
  events: string;
  /** the HMAC key, encrypted with the data-source key (SecretBox) */
  secret: string;
  enabled: number;
  /** 1: its URL may point at the console's own loopback (set by a system administrator only) */
  allow_loopback: number;
  /** the seq of its last queued delivery */
  last_seq: number;
  /** delivered, retrying or failed: how its last attempt went */
  last_status: string | null;
  last_error: string | null;
  last_time: string | null;
  tenant_id: string | null;
}

/** One event queued for one subscription. */
export interface SysWebhookDelivery extends Audited {
  webhook_id: string;
  seq: number;
  event_kind: string;
  /** the JSON body sent, as it is signed */
  body: string;
  /** WebhookDeliveryStatus */
  status: string;
  attempts: number;
  /** pending: when due; sending: when the claim lapses; null once delivered or failed */
  next_attempt_time: string | null;
  /** retried until then (24 h after it was queued or queued again) */
  give_up_time: string;
  last_status: number | null;
  last_error: string | null;
  delivered_time: string | null;
  tenant_id: string | null;
}

// API keys (migration 1750) -------------------------------------------------------------------------------------

/** An API key (1750): found by its prefix, checked against the peppered hash of the whole key; codes as a JSON list. */
export interface SysApiKey extends Audited {
  name: string;
  key_prefix: string;
  key_hash: string;
  tenant_id: string;
  /** JSON array of permission codes */
  perm_codes: string;
  expires_at: string;
  revoked_at: string | null;
  /** a rotated key's overlap end: refused after it */
  valid_until: string | null;
  rotated_from: string | null;
  /** the user who made it: the key holds its codes only as far as he still does */
  created_by_id: string;
}

/** When and from where a key was last used (1750); the id is the key's. */
export interface SysApiKeyUse extends Audited {
  last_used_at: string | null;
  last_used_ip: string | null;
}

// Orders, the one-to-many demo (migration 1740) ---------------------------------------------------------------

/** An order of the one-to-many demo (1740, the origin's jeecg_order_main); its lines take its tenant. */
export interface JeecgOrderMain extends Audited {
  order_code: string;
  /** 1 domestic, 2 international (ORDER_TYPES) */
  ctype: string | null;
  /** `yyyy-MM-dd` */
  order_date: string | null;
  /** decimal text, two places at most */
  order_money: string | null;
  content: string | null;
  tenant_id: string | null;
}

/** A customer of an order (the origin's jeecg_order_customer). */
export interface JeecgOrderCustomer extends Audited {
  order_id: string;
  /** the line's place among its order's customers, from 0 */
  line_no: number;
  name: string;
  sex: string | null;
  idcard: string | null;
  telphone: string | null;
  tenant_id: string | null;
}

/** A ticket of an order (the origin's jeecg_order_ticket). */
export interface JeecgOrderTicket extends Audited {
  order_id: string;
  line_no: number;
  ticket_code: string;
  /** `yyyy-MM-dd` */
  tickect_date: string | null;
  tenant_id: string | null;
}
