import { deliverSystemMessage } from './announcement-service.ts';
import {
  announcementEditInput,
  announcementInput,
  announcementListQuery,
  AnnouncementPath,
  AnnouncementPerm,
  ID_PATTERN,
  markReadBody,
  messageEditInput,
  messageInput,
  messageListQuery,
  MessagePath,
  MessagePerm,
  MessageTemplatePath,
  myNoticeQuery,
  sendMsgBody,
  splitIds,
  templateEditInput,
  templateInput,
  templateListQuery,
} from '@isps/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { callerOf } from '../../platform/access.ts';
import { envelope, refuse } from '../../platform/envelope.ts';
import { orderRoutes } from './order.ts';
import {
  addAnnouncement,
  announcementForCaller,
  deleteAnnouncements,
  editAnnouncement,
  listAnnouncements,
  markAllNoticesRead,
  markNoticeRead,
  myNotices,
  noticeSummary,
  releaseAnnouncement,
  revokeAnnouncement,
} from './announcement-service.ts';
import {
  addMessage,
  addTemplate,
  deleteMessages,
  deleteTemplates,
  editMessage,
  editTemplate,
  findMessage,
  findTemplate,
  listMessages,
  listTemplates,
  sendTemplateMessage,
} from './message-service.ts';

const idQuery = z.object({ id: z.string().regex(ID_PATTERN) });
const idsQuery = z.object({ ids: z.string().max(70_000) });

function idsOf(text: string): string[] {
  const ids = splitIds(text);
  if (ids.length === 0) refuse('crud.selectRecord');
  if (ids.length > 1000 || ids.some((id) => !ID_PATTERN.test(id))) refuse('crud.selectRecord');
  return ids;
}

/** Announcements and the caller's notices (SPEC sections 3, 4, 7). */
const announcementRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['announcement'];

  app.get(AnnouncementPath.list, { schema: { tags, summary: 'Announcements, paged', querystring: announcementListQuery }, config: { permission: AnnouncementPerm.list } }, async (request, reply) =>
    reply.ok(await listAnnouncements(app, callerOf(request), request.query)),
  );
  app.post(AnnouncementPath.add, { schema: { tags, summary: 'Write an announcement (a draft)', body: announcementInput }, config: { permission: AnnouncementPerm.add } }, async (request, reply) =>
    reply.ok(await addAnnouncement(app, callerOf(request), request.body), 'crud.added'),
  );
  app.put(AnnouncementPath.edit, { schema: { tags, summary: 'Change an announcement', body: announcementEditInput }, config: { permission: AnnouncementPerm.edit } }, async (request, reply) => {
    const { id, ...input } = request.body;
    return reply.ok(await editAnnouncement(app, callerOf(request), id, input), 'crud.edited');
  });
  app.delete(AnnouncementPath.delete, { schema: { tags, summary: 'Delete an announcement', querystring: idQuery }, config: { permission: AnnouncementPerm.delete } }, async (request, reply) => {
    await deleteAnnouncements(app, callerOf(request), [request.query.id]);
    return reply.ok(null, 'crud.deleted');
  });
  app.delete(AnnouncementPath.deleteBatch, { schema: { tags, summary: 'Delete announcements', querystring: idsQuery }, config: { permission: AnnouncementPerm.delete } }, async (request, reply) => {
    await deleteAnnouncements(app, callerOf(request), idsOf(request.query.ids));
    return reply.ok(null, 'crud.deleted');
  });
  // administrators read any; a recipient reads one addressed to them (the detail dialog), with their read flag
  app.get(AnnouncementPath.queryById, { schema: { tags, summary: 'One announcement', querystring: idQuery }, config: { permission: 'authenticated' } }, async (request, reply) =>
    reply.ok(await announcementForCaller(app, callerOf(request), request.query.id)),
  );
  app.get(AnnouncementPath.release, { schema: { tags, summary: 'Release to its recipients and notify them', querystring: idQuery }, config: { permission: AnnouncementPerm.release } }, async (request, reply) => {
    await releaseAnnouncement(app, callerOf(request), request.query.id);
    return reply.ok(null, 'announcement.released');
  });
  app.get(AnnouncementPath.revoke, { schema: { tags, summary: 'Revoke: recipients no longer see it', querystring: idQuery }, config: { permission: AnnouncementPerm.revoke } }, async (request, reply) => {
    await revokeAnnouncement(app, callerOf(request), request.query.id);
    return reply.ok(null, 'announcement.revoked');
  });
  app.get(AnnouncementPath.listByUser, { schema: { tags, summary: 'Unread notices of the caller (the bell)' }, config: { permission: 'authenticated' } }, async (request, reply) =>
    reply.ok(await noticeSummary(app, callerOf(request))),
  );
  for (const method of ['POST', 'PUT'] as const) {
    app.route({
      method,
      url: AnnouncementPath.markRead,
      schema: { tags, summary: 'The caller has read a notice', body: markReadBody },
      config: { permission: 'authenticated' },
      handler: async (request, reply) => {
        await markNoticeRead(app, callerOf(request), request.body.anntId);
        return reply.ok(null, 'announcement.read');
      },
    });
  }
  app.get(AnnouncementPath.myList, { schema: { tags, summary: 'Notices of the caller, read and unread, paged', querystring: myNoticeQuery }, config: { permission: 'authenticated' } }, async (request, reply) =>
    reply.ok(await myNotices(app, callerOf(request), request.query)),
  );
  app.put(AnnouncementPath.readAll, { schema: { tags, summary: 'Mark every notice of the caller read' }, config: { permission: 'authenticated' } }, async (request, reply) => {
    await markAllNoticesRead(app, callerOf(request));
    return reply.ok(null, 'announcement.read');
  });
};

/** The message center: sent messages and templates with a test-send (SPEC section 2). */
const messageCenterRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['message'];

  app.get(MessagePath.list, { schema: { tags, summary: 'Messages, paged', querystring: messageListQuery }, config: { permission: MessagePerm.list } }, async (request, reply) =>
    reply.ok(await listMessages(app, callerOf(request), request.query)),
  );
  app.get(MessagePath.queryById, { schema: { tags, summary: 'One message', querystring: idQuery }, config: { permission: MessagePerm.list } }, async (request, reply) =>
    reply.ok(await findMessage(app, callerOf(request), request.query.id)),
  );
  app.post(MessagePath.add, { schema: { tags, summary: 'Record a message', body: messageInput }, config: { permission: MessagePerm.add } }, async (request, reply) =>
    reply.ok(await addMessage(app, callerOf(request), request.body), 'crud.added'),
  );
  app.put(MessagePath.edit, { schema: { tags, summary: 'Change a message', body: messageEditInput }, config: { permission: MessagePerm.edit } }, async (request, reply) =>
    reply.ok(await editMessage(app, callerOf(request), request.body), 'crud.edited'),
  );
  app.delete(MessagePath.delete, { schema: { tags, summary: 'Delete a message', querystring: idQuery }, config: { permission: MessagePerm.delete } }, async (request, reply) => {
    await deleteMessages(app, callerOf(request), [request.query.id]);
    return reply.ok(null, 'crud.deleted');
  });
  app.delete(MessagePath.deleteBatch, { schema: { tags, summary: 'Delete messages', querystring: idsQuery }, config: { permission: MessagePerm.delete } }, async (request, reply) => {
    await deleteMessages(app, callerOf(request), idsOf(request.query.ids));
    return reply.ok(null, 'crud.deleted');
  });

  app.get(MessageTemplatePath.list, { schema: { tags, summary: 'Message templates, paged', querystring: templateListQuery }, config: { permission: MessagePerm.templateList } }, async (request, reply) =>
    reply.ok(await listTemplates(app, callerOf(request), request.query)),
  );
  app.get(MessageTemplatePath.queryById, { schema: { tags, summary: 'One template', querystring: idQuery }, config: { permission: MessagePerm.templateList } }, async (request, reply) =>
    reply.ok(await findTemplate(app, callerOf(request), request.query.id)),
  );
  app.post(MessageTemplatePath.add, { schema: { tags, summary: 'Add a template', body: templateInput }, config: { permission: MessagePerm.templateAdd } }, async (request, reply) =>
    reply.ok(await addTemplate(app, callerOf(request), request.body), 'crud.added'),
  );
  app.put(MessageTemplatePath.edit, { schema: { tags, summary: 'Change a template', body: templateEditInput }, config: { permission: MessagePerm.templateEdit } }, async (request, reply) =>
    reply.ok(await editTemplate(app, callerOf(request), request.body), 'crud.edited'),
  );
  app.delete(MessageTemplatePath.delete, { schema: { tags, summary: 'Delete a template', querystring: idQuery }, config: { permission: MessagePerm.templateDelete } }, async (request, reply) => {
    await deleteTemplates(app, callerOf(request), [request.query.id]);
    return reply.ok(null, 'crud.deleted');
  });
  app.delete(MessageTemplatePath.deleteBatch, { schema: { tags, summary: 'Delete templates', querystring: idsQuery }, config: { permission: MessagePerm.templateDelete } }, async (request, reply) => {
    await deleteTemplates(app, callerOf(request), idsOf(request.query.ids));
    return reply.ok(null, 'crud.deleted');
  });
  app.post(MessageTemplatePath.sendMsg, { schema: { tags, summary: 'Test-send a template through a real channel', body: sendMsgBody }, config: { permission: MessagePerm.templateTestSend } }, async (request, reply) => {
    const { message, failure } = await sendTemplateMessage(app, callerOf(request), request.lang, request.body);
    if (failure) return reply.send(envelope(request.lang, 'refused', message, 'message.sendFailed', { reason: failure }));
    return reply.ok(message, 'message.sent');
  });
};

export const messageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.systemNotices.register((n) => deliverSystemMessage(app, n.by, n.tenantId, n.userId, n.title, n.html, n.busId));
  app.systemNotices.registerTemplates((caller, lang, body) => sendTemplateMessage(app, caller, lang, body));
  await app.register(announcementRoutes);
  await app.register(messageCenterRoutes);
  orderRoutes(app);
};
