import type { Migration } from 'kysely';
import { audited, type AnyDb } from './table-helpers.ts';


/** Screens this migration brings to life on consoles seeded before it (new consoles get them from the seed). */
const shownUrls = ['/system', '/system/announcement', '/system/userAnnouncement', '/message', '/message/message', '/message/template'];

async function up(db: AnyDb): Promise<void> {
  await audited(db.schema.createTable('sys_announcement'))
    .addColumn('titile', 'varchar(200)', (c) => c.notNull())
    .addColumn('msg_content', 'text')
    .addColumn('start_time', 'varchar(32)')
    .addColumn('end_time', 'varchar(32)')
    .addColumn('sender', 'varchar(100)')
    .addColumn('priority', 'varchar(1)', (c) => c.notNull())
    .addColumn('msg_category', 'varchar(1)', (c) => c.notNull())
    .addColumn('msg_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('user_ids', 'text')
    .addColumn('send_status', 'varchar(1)', (c) => c.notNull())
    .addColumn('send_time', 'varchar(32)')
    .addColumn('cancel_time', 'varchar(32)')
    .addColumn('open_type', 'varchar(16)')
    .addColumn('open_page', 'varchar(255)')
    .addColumn('bus_id', 'varchar(64)')
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('theme', 'varchar(64)')
    .addColumn('channels', 'varchar(255)')
    .addColumn('background_image', 'varchar(500)')
    .addColumn('attachments', 'text')
    .addColumn('video', 'varchar(500)')
    .addColumn('del_flag', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idx_sys_announcement_status').on('sys_announcement').columns(['send_status', 'msg_type']).execute();

  await audited(db.schema.createTable('sys_announcement_send'))
    .addColumn('annt_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('read_flag', 'integer', (c) => c.notNull())
    .addColumn('read_time', 'varchar(32)')
    .execute();
  await db.schema.createIndex('uq_sys_announcement_send').on('sys_announcement_send').columns(['annt_id', 'user_id']).unique().execute();
  await db.schema.createIndex('idx_sys_announcement_send_user').on('sys_announcement_send').columns(['user_id', 'read_flag']).execute();

  await audited(db.schema.createTable('sys_message'))
    .addColumn('es_title', 'varchar(200)', (c) => c.notNull())
    .addColumn('es_content', 'text')
    .addColumn('es_param', 'text')
    .addColumn('es_receiver', 'varchar(200)', (c) => c.notNull())
    .addColumn('es_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('es_send_status', 'varchar(1)', (c) => c.notNull())
    .addColumn('es_send_num', 'integer', (c) => c.notNull())
    .addColumn('es_result', 'varchar(500)')
    .addColumn('es_send_time', 'varchar(32)')
    .addColumn('remark', 'varchar(500)')
    .execute();
  await db.schema.createIndex('idx_sys_message_status').on('sys_message').columns(['es_send_status', 'es_type']).execute();

  await audited(db.schema.createTable('sys_message_template'))
    .addColumn('template_code', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('template_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('template_content', 'text', (c) => c.notNull())
    .addColumn('template_type', 'varchar(1)', (c) => c.notNull())
    .addColumn('template_test_json', 'text')
    .execute();

  await db.updateTable('sys_permission').set({ is_route: 1, hidden: 0 }).where('url', 'in', shownUrls).where('menu_type', 'in', [0, 1]).execute();
}

export const messageTables: Migration = { up };
