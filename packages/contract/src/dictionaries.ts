/** A dictionary the product seeds, its item texts in English, Chinese and Japanese. */
export interface SeededDictionary {
  code: string;
  /** stored name (English) */
  name: string;
  /** the name in Chinese and Japanese */
  names: readonly [zhCN: string, jaJP: string];
  items: ReadonlyArray<readonly [value: string, enUS: string, zhCN: string, jaJP: string]>;
}

/**
 * The dictionaries the spec names. Items are stored with their English text; the server shows a seeded text in the
 * reader's language as long as an administrator has not changed it (a changed text is shown as written).
 */
export const seededDictionaries: readonly SeededDictionary[] = [
  { code: 'sex', name: 'Gender', names: ['性别', '性別'], items: [['1', 'Male', '男', '男性'], ['2', 'Female', '女', '女性']] },
  { code: 'user_status', name: 'User status', names: ['用户状态', 'ユーザー状態'], items: [['1', 'Normal', '正常', '正常'], ['2', 'Frozen', '冻结', '凍結'], ['3', 'Awaiting approval', '待审核', '承認待ち']] },
  { code: 'id_type', name: 'ID type', names: ['证件类型', '身分証明書の種類'], items: [['1', 'Resident ID card', '居民身份证', '中国居民身分証'], ['2', 'Passport', '护照', 'パスポート'], ['3', 'Other', '其他', 'その他']] },
  { code: 'visit_state', name: 'Visit state', names: ['来访状态', '来訪の状態'], items: [['requested', 'Awaiting the host', '待被访人审批', '訪問先の承認待ち'], ['approved', 'Approved', '已批准', '承認済み'], ['refused', 'Refused', '已拒绝', '却下']] },
  { code: 'priority', name: 'Priority', names: ['优先级', '優先度'], items: [['L', 'Low', '低', '低'], ['M', 'Medium', '中', '中'], ['H', 'High', '高', '高']] },
  { code: 'device_status', name: 'Device network status', names: ['设备网络状态', 'デバイスネットワーク状態'], items: [['1', 'Online', '在线', 'オンライン'], ['0', 'Offline', '离线', 'オフライン']] },
  { code: 'valid_status', name: 'Valid status', names: ['有效状态', '有効状態'], items: [['1', 'Valid', '有效', '有効'], ['0', 'Invalid', '无效', '無効']] },
  { code: 'yn', name: 'Yes or no', names: ['是否', 'はい／いいえ'], items: [['1', 'Yes', '是', 'はい'], ['0', 'No', '否', 'いいえ']] },
  { code: 'role_type', name: 'Role type', names: ['角色类型', 'ロール種別'], items: [['1', 'User', '用户', 'ユーザー'], ['2', 'Device administrator', '设备管理员', 'デバイス管理者']] },
  { code: 'device_type_status', name: 'Device type status', names: ['设备类型状态', 'デバイス種別状態'], items: [['1', 'Enabled', '启用', '有効'], ['2', 'Disabled', '停用', '無効']] },
  { code: 'route_status', name: 'Patrol route status', names: ['巡更路线状态', '巡回ルート状態'], items: [['1', 'Enabled', '启用', '有効'], ['0', 'Disabled', '停用', '無効']] },
  { code: 'send_status', name: 'Send status', names: ['发送状态', '送信状態'], items: [['0', 'Not sent', '未发送', '未送信'], ['1', 'Sent', '已发送', '送信済み'], ['2', 'Failed', '发送失败', '送信失敗']] },
  { code: 'msg_type', name: 'Message type', names: ['消息类型', 'メッセージ種別'], items: [['1', 'Announcement', '通知公告', 'お知らせ'], ['2', 'System message', '系统消息', 'システムメッセージ']] },
  { code: 'cabinet_status', name: 'Cabinet status', names: ['储物柜状态', 'ロッカー状態'], items: [['0', 'Unassigned', '未分配', '未割当'], ['1', 'Assigned', '已分配', '割当済み'], ['2', 'Assignable', '可分配', '割当可能']] },
  { code: 'cabinet_attribute', name: 'Cabinet attribute', names: ['储物柜属性', 'ロッカー属性'], items: [['1', 'One person', '单人', '一人用'], ['2', 'Several people', '多人', '複数人用']] },
  {
    code: 'device_system',
    name: 'Device system', names: ['设备系统', 'デバイスシステム'],
    items: [['1', 'AB door', 'AB门', 'ABドア'], ['2', 'Access control', '门禁', '入退室管理'], ['3', 'Storage', '储物柜', '保管庫'], ['4', 'Earthquake alarm', '地震报警', '地震警報']],
  },
  { code: 'device_kind', name: 'Device kind', names: ['设备种类', 'デバイス区分'], items: [['1', 'Controller', '控制器', 'コントローラー'], ['2', 'Camera', '摄像头', 'カメラ'], ['3', 'Vein device', '静脉设备', '静脈認証デバイス']] },
  { code: 'org_type', name: 'Group type', names: ['部门类型', 'グループ種別'], items: [['1', 'Company', '公司', '会社'], ['2', 'Department', '部门', '部署'], ['3', 'Post', '岗位', '職位']] },
  { code: 'job_status', name: 'Scheduled job status', names: ['定时任务状态', '定期ジョブ状態'], items: [['0', 'Normal', '正常', '正常'], ['-1', 'Stopped', '停止', '停止']] },
  {
    code: 'device_role_type',
    name: 'Device role type', names: ['设备角色类型', 'デバイスロール種別'],
    items: [['1', 'Door access', '门禁', '入退室'], ['2', 'Device manager', '设备管理员', 'デバイス管理者'], ['3', 'Attendance', '考勤', '勤怠'], ['4', 'Patrol', '巡更', '巡回']],
  },
];

/**
 * Dictionaries a later release added through a migration (0002: positions, tenants, data sources), stored there with
 * these English texts; translated like the seeded ones. Not in `seededDictionaries`, which a fresh seed inserts again.
 */
export const migratedDictionaries: readonly SeededDictionary[] = [
  {
    code: 'post_rank',
    name: 'Post rank', names: ['职级', '職級'],
    items: [
      ['1', 'Staff', '职员', 'スタッフ'],
      ['2', 'Team leader', '组长', 'チームリーダー'],
      ['3', 'Manager', '经理', 'マネージャー'],
      ['4', 'Director', '总监', 'ディレクター'],
      ['5', 'Executive', '高管', '役員'],
    ],
  },
  { code: 'tenant_status', name: 'Tenant status', names: ['租户状态', 'テナント状態'], items: [['1', 'Normal', '正常', '正常'], ['0', 'Frozen', '冻结', '凍結']] },
  { code: 'database_type', name: 'Database type', names: ['数据库类型', 'データベース種別'], items: [['postgresql', 'PostgreSQL', 'PostgreSQL', 'PostgreSQL'], ['mysql', 'MySQL', 'MySQL', 'MySQL'], ['mariadb', 'MariaDB', 'MariaDB', 'MariaDB']] },
];
