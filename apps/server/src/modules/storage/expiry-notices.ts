import { answerLanguage, CABINET_EXPIRY_NOTICE_MS, CabinetStatus, translate } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { formatWireTime } from '../../platform/wire-time.ts';
import { noticeParagraph } from '../../platform/system-notices.ts';


/**
 * Tells the managers of each cabinet's device, and its holders who are console users (a person whose user number is a
 * user's work number, in the same tenant), that its allocation ends within CABINET_EXPIRY_NOTICE_MS: one message each,
 * in their language, once per allocation (the statement that marks the cabinet told is the one that may tell, so two
 * servers tell once; a new allocation is told again). Answers how many cabinets were told of.
 */
export async function noticeExpiring(app: FastifyInstance, nowMs: number): Promise<number> {
  const now = new Date(nowMs).toISOString();
  const soon = new Date(nowMs + CABINET_EXPIRY_NOTICE_MS).toISOString();
  const due = await app.db
    .selectFrom('sys_cabinet as c')
    .innerJoin('sys_device as d', 'd.id', 'c.device_id')
    .select(['c.id', 'c.device_id', 'c.cabinet_no', 'c.expire_time', 'c.tenant_id', 'd.device_name'])
    .where('c.status', '=', CabinetStatus.assigned)
    .where('c.expiry_notified', '=', 0)
    .where('c.expire_time', '>', now)
    .where('c.expire_time', '<=', soon)
    .limit(500)
    .execute();
  let told = 0;
  for (const cabinet of due) {
    const marked = await app.db.updateTable('sys_cabinet').set({ expiry_notified: 1 }).where('id', '=', cabinet.id).where('expiry_notified', '=', 0).where('status', '=', CabinetStatus.assigned).executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) continue;
    const managers = await app.db
      .selectFrom('sys_storage_manager as m')
      .innerJoin('sys_storage_manager_device as md', 'md.manager_id', 'm.id')
      .innerJoin('sys_user as u', 'u.username', 'm.user_name')
      .select(['u.id', 'u.lang'])
      .where('md.device_id', '=', cabinet.device_id)
      .where('u.del_flag', '=', 0)
      .execute();
    let holders = app.db
      .selectFrom('sys_cabinet_people as cp')
      .innerJoin('sys_people as p', 'p.id', 'cp.people_id')
      .innerJoin('sys_user as u', 'u.work_no', 'p.user_no')
      .select(['u.id', 'u.lang'])
      .where('cp.cabinet_id', '=', cabinet.id)
      .where('u.del_flag', '=', 0);
    holders = cabinet.tenant_id === null ? holders.where('u.tenant_id', 'is', null) : holders.where('u.tenant_id', '=', cabinet.tenant_id);
    const users = new Map([...managers, ...(await holders.execute())].map((u) => [u.id, answerLanguage(u.lang, null)]));
    for (const [userId, lang] of users) {
      const params = { cabinet: cabinet.cabinet_no, device: cabinet.device_name, time: formatWireTime(cabinet.expire_time!, app.settings.timeZone) };
      await app.systemNotices.send({ by: 'storage', tenantId: cabinet.tenant_id, userId, title: translate(lang, 'storage.expirySoonTitle'), html: noticeParagraph(translate(lang, 'storage.expirySoon', params)), busId: cabinet.id });
    }
    told += 1;
  }
  return told;
}
