import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnnouncementPath,
  MessageTemplatePath,
  RealtimeCmd,
  type Announcement,
  type NoticeSummary,
  type Page,
  type SysMessage,
  type UserNotice,
} from '@isps/contract';
import { openSocket, wsBase } from '../../platform/realtime/test-client.ts';
import { REFUSED_RECIPIENT_REPLY, startSmtp, type LocalSmtp } from '../../test/smtp-server.ts';
import {
  USER_PASSWORD,
  adminToken,
  api,
  buildTestApp,
  createNamespace,
  createTestUser,
  injectAs,
  login,
  redisReachable,
  testDialects,
  type TestApp,
} from '../../test/harness.ts';

const draft = (extra: Record<string, unknown> = {}) => ({
  titile: 'Door maintenance',
  msgContent: '<p>Doors close at <b>18:00</b></p>',
  msgCategory: '1',
  msgType: 'ALL',
  priority: 'H',
  ...extra,
});

describe.each(await testDialects())('announcements on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let aliceId: string;
  let bobId: string;
  let alice: string;
  let bob: string;

  const call = <T = unknown>(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown, lang = 'en-US') =>
    injectAs<T>(t.app, token, { method, url: api(t.app, path), headers: { lang }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

  async function addDraft(extra: Record<string, unknown> = {}): Promise<Announcement> {
    const added = await call<Announcement>(admin, 'POST', AnnouncementPath.add, draft(extra));
    expect(added.envelope.success, added.envelope.message).toBe(true);
    return added.envelope.result;
  }

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await adminToken(t.app);
    aliceId = await createTestUser(t.app, 'alice');
    bobId = await createTestUser(t.app, 'bob');
    alice = await login(t.app, 'alice', USER_PASSWORD);
    bob = await login(t.app, 'bob', USER_PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('releases to a chosen user: their socket hears it within 1 s, another user hears nothing, the bell shows it unread', async () => {
    const aliceSocket = await openSocket(wsBase(t), aliceId, alice);
    const bobSocket = await openSocket(wsBase(t), bobId, bob);
    try {
      const annt = await addDraft({ titile: 'For Alice', msgType: 'USER', userIds: `${aliceId},` });
      expect(annt.sendStatus).toBe('0');
      const before = await call<NoticeSummary>(alice, 'GET', AnnouncementPath.listByUser);
      expect(before.envelope.result.anntMsgList.map((n) => n.id)).not.toContain(annt.id);

      const started = Date.now();
      const released = await call(admin, 'GET', `${AnnouncementPath.release}?id=${annt.id}`);
      expect(released.envelope).toMatchObject({ success: true, message: 'Released successfully' });
      const pushed = await aliceSocket.next((m) => m.msgId === annt.id, 15_000);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(pushed).toMatchObject({ cmd: RealtimeCmd.user, msgTxt: 'For Alice' });
      await new Promise((r) => setTimeout(r, 150));
      expect(bobSocket.messages).toEqual([]);

      const summary = await call<NoticeSummary>(alice, 'GET', AnnouncementPath.listByUser);
      const notice = summary.envelope.result.anntMsgList.find((n) => n.id === annt.id) as UserNotice;
      expect(notice).toMatchObject({ titile: 'For Alice', readFlag: 0, priority: 'H', sender: 'admin' });
      const unreadBefore = summary.envelope.result.anntMsgTotal;
      expect((await call<NoticeSummary>(bob, 'GET', AnnouncementPath.listByUser)).envelope.result.anntMsgList.map((n) => n.id)).not.toContain(annt.id);
      // a recipient may open it; someone else may not
      expect((await call<Announcement>(alice, 'GET', `${AnnouncementPath.queryById}?id=${annt.id}`)).envelope.result).toMatchObject({ id: annt.id, readFlag: 0 });
      expect((await call(bob, 'GET', `${AnnouncementPath.queryById}?id=${annt.id}`)).envelope.success).toBe(false);

      const read = await call(alice, 'PUT', AnnouncementPath.markRead, { anntId: annt.id });
      expect(read.envelope.success).toBe(true);
      const after = await call<NoticeSummary>(alice, 'GET', AnnouncementPath.listByUser);
      expect(after.envelope.result.anntMsgTotal).toBe(unreadBefore - 1);
      expect(after.envelope.result.anntMsgList.map((n) => n.id)).not.toContain(annt.id);
      const mine = await call<Page<UserNotice>>(alice, 'GET', `${AnnouncementPath.myList}?pageNo=1&pageSize=50`);
      expect(mine.envelope.result.records.find((n) => n.id === annt.id)).toMatchObject({ readFlag: 1 });
      expect((await call(alice, 'POST', AnnouncementPath.markRead, { anntId: annt.id })).envelope.success).toBe(true);
    } finally {
      await Promise.all([aliceSocket.close(), bobSocket.close()]);
    }
  });

  it('releases to everyone with a topic push, and revoking hides it and pushes a reload', async () => {
    const bobSocket = await openSocket(wsBase(t), bobId, bob);
    try {
      const annt = await addDraft({ titile: 'For all' });
      await call(admin, 'GET', `${AnnouncementPath.release}?id=${annt.id}`);
      await bobSocket.next((m) => m.cmd === RealtimeCmd.topic && m.msgId === annt.id);
      // a user created after the release still receives it
      const lateId = await createTestUser(t.app, 'late');
      const late = await login(t.app, 'late', USER_PASSWORD);
      expect((await call<NoticeSummary>(late, 'GET', AnnouncementPath.listByUser)).envelope.result.anntMsgList.map((n) => n.id)).toContain(annt.id);
      expect(lateId).toBeTruthy();

      const revoked = await call(admin, 'GET', `${AnnouncementPath.revoke}?id=${annt.id}`);
      expect(revoked.envelope).toMatchObject({ success: true, message: 'Revoked successfully' });
      const reload = await bobSocket.next((m) => m.msgId === annt.id && (m.data as { action?: string })?.action === 'revoke');
      expect(reload.cmd).toBe(RealtimeCmd.topic);
      expect((await call<NoticeSummary>(bob, 'GET', AnnouncementPath.listByUser)).envelope.result.anntMsgList.map((n) => n.id)).not.toContain(annt.id);
      expect((await call<Page<UserNotice>>(bob, 'GET', AnnouncementPath.myList)).envelope.result.records.map((n) => n.id)).not.toContain(annt.id);
      expect((await call(admin, 'GET', `${AnnouncementPath.revoke}?id=${annt.id}`)).envelope).toMatchObject({ success: false, code: 500 });
      const listed = await call<Page<Announcement>>(admin, 'GET', `${AnnouncementPath.list}?sendStatus=2`);
      expect(listed.envelope.result.records.map((a) => a.id)).toContain(annt.id);
    } finally {
      await bobSocket.close();
    }
  });

  it('stores and serves announcement HTML sanitised', async () => {
    const dirty =
      '<p onclick="steal()">Hi<script>alert(1)</script></p><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">link</a><a href="https://example.com/ok">ok</a>';
    const annt = await addDraft({ msgContent: dirty });
    for (const content of [annt.msgContent, (await call<Announcement>(admin, 'GET', `${AnnouncementPath.queryById}?id=${annt.id}`)).envelope.result.msgContent]) {
      expect(content).not.toMatch(/script|onerror|onclick|javascript:/i);
      expect(content).toContain('<p>Hi</p>');
      expect(content).toContain('href="https://example.com/ok"');
    }
    const row = await t.app.db.selectFrom('sys_announcement').select('msg_content').where('id', '=', annt.id).executeTakeFirstOrThrow();
    expect(row.msg_content).not.toMatch(/script|onerror|onclick|javascript:/i);
    // a row written around the sanitiser is still served clean
    await t.app.db.updateTable('sys_announcement').set({ msg_content: dirty }).where('id', '=', annt.id).execute();
    const served = await call<Announcement>(admin, 'GET', `${AnnouncementPath.queryById}?id=${annt.id}`);
    expect(served.envelope.result.msgContent).not.toMatch(/script|onerror|onclick|javascript:/i);
    // a script URL is not accepted as the page to open either
    expect((await call(admin, 'POST', AnnouncementPath.add, draft({ openType: 'url', openPage: 'javascript:alert(1)' }))).statusCode).toBe(400);
  });

  it('validates per SPEC section 5 with messages in three languages', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ titile: ' ' }, { 'en-US': 'Please enter the title', 'zh-CN': '请输入标题', 'ja-JP': 'タイトルを入力してください' }],
      [{ msgCategory: undefined }, { 'en-US': 'Please choose the message type', 'zh-CN': '请选择消息类型', 'ja-JP': 'メッセージ種別を選択してください' }],
      [{ msgType: undefined }, { 'en-US': 'Please choose the notification object type', 'zh-CN': '请选择通告对象类型', 'ja-JP': '通知対象の種別を選択してください' }],
      [{ msgType: 'USER', userIds: '' }, { 'en-US': 'Please choose the users to notify', 'zh-CN': '请选择通告的用户', 'ja-JP': '通知するユーザーを選択してください' }],
      [{ msgContent: '<p></p>' }, { 'en-US': 'Please enter the content or choose a background image', 'zh-CN': '请输入内容或选择背景图片', 'ja-JP': '内容を入力するか背景画像を選択してください' }],
      [{ type: 'video' }, { 'en-US': 'A video announcement needs a video', 'zh-CN': '视频类型的通告需要上传视频', 'ja-JP': '動画のお知らせには動画が必要です' }],
      [
        { startTime: '2030-01-02 00:00:00', endTime: '2030-01-01 00:00:00' },
        { 'en-US': 'The end time must be later than the start time', 'zh-CN': '结束时间', 'ja-JP': '終了' },
      ],
    ];
    for (const [change, messages] of cases) {
      for (const [lang, text] of Object.entries(messages)) {
        const answer = await call(admin, 'POST', AnnouncementPath.add, draft(change), lang);
        expect(answer.statusCode, JSON.stringify(change)).toBe(400);
        expect(answer.envelope.message, `${lang} ${JSON.stringify(change)}`).toContain(text);
      }
    }
    // a background image stands in for content; a video announcement with its video is fine
    expect((await call(admin, 'POST', AnnouncementPath.add, draft({ msgContent: '', backgroundImage: '/files/bg.png' }))).envelope.success).toBe(true);
    expect((await call(admin, 'POST', AnnouncementPath.add, draft({ type: 'video', video: '/files/intro.mp4' }))).envelope.success).toBe(true);
  });

  it('edits, deletes and keeps administration behind its permissions', async () => {
    const annt = await addDraft();
    const edited = await call<Announcement>(admin, 'PUT', AnnouncementPath.edit, { id: annt.id, titile: 'Renamed', endTime: '2099-01-01 00:00:00' });
    expect(edited.envelope.result).toMatchObject({ titile: 'Renamed', endTime: '2099-01-01 00:00:00', msgType: 'ALL' });
    expect((await call(alice, 'POST', AnnouncementPath.add, draft())).statusCode).toBe(403);
    expect((await call(alice, 'GET', `${AnnouncementPath.release}?id=${annt.id}`)).statusCode).toBe(403);
    expect((await call(admin, 'DELETE', `${AnnouncementPath.deleteBatch}?ids=${annt.id}`)).envelope.success).toBe(true);
    expect((await call(admin, 'GET', `${AnnouncementPath.queryById}?id=${annt.id}`)).envelope.success).toBe(false);
  });
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe.each(await testDialects())('message templates test-send on %s', (dialect) => {
  let smtp: LocalSmtp;
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    smtp = await startSmtp({ refuse: (address) => address.startsWith('gone@') });
    t = await buildTestApp(dialect, { env: { SMTP_URL: smtp.url, SMTP_FROM: 'Console <console@isps.test>' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await adminToken(t.app);
    const template = await injectAs(t.app, admin, {
      method: 'POST',
      url: api(t.app, MessageTemplatePath.add),
      payload: { templateCode: 'door_alarm', templateName: 'Alarm at ${door}', templateContent: 'Hello ${name},\nthe door ${door} is open.', templateType: '1' },
    });
    expect(template.envelope.success, template.envelope.message).toBe(true);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const send = (payload: Record<string, unknown>) =>
    injectAs<SysMessage>(t.app, admin, { method: 'POST', url: api(t.app, MessageTemplatePath.sendMsg), headers: { lang: 'en-US' }, payload });

  it('sends in-app: a message row, a system message in the bell and a push to the recipient', async () => {
    const carolId = await createTestUser(t.app, 'carol');
    const carol = await login(t.app, 'carol', USER_PASSWORD);
    const socket = await openSocket(wsBase(t), carolId, carol);
    try {
      const sent = await send({ templateCode: 'door_alarm', testData: '{"name":"Carol","door":"D-7"}', receiver: 'carol', msgType: 'system' });
      expect(sent.envelope).toMatchObject({ success: true, result: { esSendStatus: '1', esSendNum: 1, esTitle: 'Alarm at D-7', esResult: null } });
      const pushed = await socket.next((m) => m.cmd === RealtimeCmd.user);
      expect(pushed.msgTxt).toBe('Alarm at D-7');
      const bell = await injectAs<NoticeSummary>(t.app, carol, { method: 'GET', url: api(t.app, AnnouncementPath.listByUser) });
      expect(bell.envelope.result.sysMsgTotal).toBe(1);
      expect(bell.envelope.result.sysMsgList[0]).toMatchObject({ titile: 'Alarm at D-7', msgCategory: '2' });
      expect(bell.envelope.result.sysMsgList[0]?.msgContent).toMatch(/Hello Carol,<br ?\/?>the door D-7 is open\./);
    } finally {
      await socket.close();
    }
    const unknown = await send({ templateCode: 'door_alarm', testData: '{}', receiver: 'nobody', msgType: 'system' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.envelope).toMatchObject({ success: false, code: 500, result: { esSendStatus: '2', esResult: 'No user nobody exists' } });
  });

  it('delivers an announcement through its chosen channels, every channel when none is chosen; notice rows carry msgId; authors see its validity', async () => {
    const erinId = await createTestUser(t.app, 'erin');
    await t.app.db.updateTable('sys_user').set({ email: 'erin@example.com' }).where('id', '=', erinId).execute();
    const erin = await login(t.app, 'erin', USER_PASSWORD);
    const call = <T = unknown>(token: string, method: 'GET' | 'POST', path: string, payload?: Record<string, unknown>) =>
      injectAs<T>(t.app, token, { method, url: api(t.app, path), headers: { lang: 'en-US' }, ...(payload ? { payload } : {}) });
    const released = async (titile: string, extra: Record<string, unknown>) => {
      const added = await call<Announcement>(admin, 'POST', AnnouncementPath.add, { titile, msgContent: `<p>${titile} text</p>`, msgCategory: '1', msgType: 'USER', userIds: erinId, priority: 'L', ...extra });
      expect(added.envelope.success, added.envelope.message).toBe(true);
      expect((await call(admin, 'GET', `${AnnouncementPath.release}?id=${added.envelope.result.id}`)).envelope.success).toBe(true);
      return added.envelope.result.id;
    };
    const inBell = async () => (await call<NoticeSummary>(erin, 'GET', AnnouncementPath.listByUser)).envelope.result.anntMsgList;
    const mailsTo = (subject: string) => smtp.mails.filter((m) => m.raw.includes(`Subject: ${subject}`)).map((m) => m.to);

    const mailOnly = await released('Mail only', { channels: 'email' });
    const appOnly = await released('App only', { channels: 'system' });
    const every = await released('Every channel', { channels: '' });
    await expect.poll(() => mailsTo('Every channel')).toEqual([['erin@example.com']]);
    expect(mailsTo('Mail only')).toEqual([['erin@example.com']]);
    expect(mailsTo('App only')).toEqual([]);
    const bell = await inBell();
    expect(bell.map((n) => n.id)).not.toContain(mailOnly);
    expect(bell.map((n) => n.id)).toEqual(expect.arrayContaining([appOnly, every]));
    // the id the real-time messages of it carry
    expect(bell.find((n) => n.id === every)).toMatchObject({ msgId: every, anntId: every });
    const mine = await call<Page<UserNotice>>(erin, 'GET', `${AnnouncementPath.myList}?pageNo=1&pageSize=50`);
    expect(mine.envelope.result.records.every((n) => n.msgId === n.id)).toBe(true);
    // an unknown channel is refused
    const unknown = await call(admin, 'POST', AnnouncementPath.add, { titile: 'Fax', msgContent: '<p>x</p>', msgCategory: '1', msgType: 'ALL', channels: 'fax' });
    expect(unknown.envelope.success).toBe(false);

    // the authors' list: unspecified (no window), in effect (inside it), expired (past its end)
    await call(admin, 'POST', AnnouncementPath.add, { titile: 'Window past', msgContent: '<p>x</p>', msgCategory: '1', msgType: 'ALL', startTime: '2020-01-01 08:00:00', endTime: '2020-02-01 08:00:00' });
    await call(admin, 'POST', AnnouncementPath.add, { titile: 'Window now', msgContent: '<p>x</p>', msgCategory: '1', msgType: 'ALL', startTime: '2020-01-01 08:00:00', endTime: '2099-02-01 08:00:00' });
    const authored = (await call<Page<Announcement>>(admin, 'GET', `${AnnouncementPath.list}?pageNo=1&pageSize=50`)).envelope.result.records;
    const validity = (titile: string) => authored.find((a) => a.titile === titile)?.validity;
    expect([validity('Every channel'), validity('Window now'), validity('Window past')]).toEqual(['unspecified', 'inEffect', 'expired']);
    // the tests below count the mails of their own
    smtp.mails.splice(0);
  });

  it('sends e-mail through the SMTP server with the rendered template', async () => {
    const sent = await send({ templateCode: 'door_alarm', testData: { name: 'Dan', door: 'Gate 2' }, receiver: 'dan@example.com', msgType: 'email' });
    expect(sent.envelope, sent.envelope.message).toMatchObject({ success: true, result: { esSendStatus: '1', esType: 'email' } });
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]?.to).toEqual(['dan@example.com']);
    expect(smtp.mails[0]?.raw).toContain('Subject: Alarm at Gate 2');
    expect(smtp.mails[0]?.raw).toContain('Hello Dan,');
    expect(smtp.mails[0]?.raw).toContain('the door Gate 2 is open.');
    expect(smtp.mails[0]?.raw).toContain('console@isps.test');
    const listed = await injectAs<Page<SysMessage>>(t.app, admin, { method: 'GET', url: api(t.app, '/sys/message/sysMessage/list?esType=email') });
    expect(listed.envelope.result.records[0]).toMatchObject({ esReceiver: 'dan@example.com', esSendStatus: '1' });
  });

  it('records a recipient the SMTP server refuses as a failed send with the server reply as its reason', async () => {
    const refused = await send({ templateCode: 'door_alarm', testData: '{}', receiver: 'gone@example.com', msgType: 'email' });
    expect(refused.statusCode).toBe(200);
    expect(refused.envelope).toMatchObject({ success: false, code: 500, result: { esSendStatus: '2', esSendNum: 1, esType: 'email' } });
    expect(refused.envelope.result.esResult).toContain(REFUSED_RECIPIENT_REPLY);
    expect(smtp.mails.some((mail) => mail.to.includes('gone@example.com'))).toBe(false);
  });

  it('records a failing SMTP server as a failed send, never a 500', async () => {
    const port = await closedPort();
    const broken = await buildTestApp(dialect, { namespace: t.namespace, env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    try {
      const token = await adminToken(broken.app);
      const answer = await injectAs<SysMessage>(broken.app, token, {
        method: 'POST',
        url: api(broken.app, MessageTemplatePath.sendMsg),
        headers: { lang: 'en-US' },
        payload: { templateCode: 'door_alarm', testData: '{}', receiver: 'eve@example.com', msgType: 'email' },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.envelope).toMatchObject({ success: false, code: 500, result: { esSendStatus: '2', esSendNum: 1 } });
      expect(answer.envelope.message).toMatch(/^Send failed: .*ECONNREFUSED/);
      const row = await broken.app.db.selectFrom('sys_message').selectAll().where('id', '=', answer.envelope.result.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ es_send_status: '2' });
      expect(row.es_result).toContain('ECONNREFUSED');
    } finally {
      await broken.close();
    }
  });

  it('refuses a duplicate template code and an unknown template', async () => {
    const duplicate = await injectAs(t.app, admin, {
      method: 'POST',
      url: api(t.app, MessageTemplatePath.add),
      headers: { lang: 'en-US' },
      payload: { templateCode: 'door_alarm', templateName: 'x', templateContent: 'y' },
    });
    expect(duplicate.envelope).toMatchObject({ success: false, message: 'Template code already exists!' });
    expect((await send({ templateCode: 'missing', receiver: 'a@b.c', msgType: 'email' })).envelope).toMatchObject({ success: false, code: 500 });
  });
});

describe('cross-instance delivery through Redis', async () => {
  const withRedis = await redisReachable();
  it.skipIf(!withRedis)('a release on instance B reaches a socket on instance A', async () => {
    const namespace = await createNamespace('sqlite');
    const a = await buildTestApp('sqlite', { namespace, redis: true, config: { cacheKeyPrefix: `isps-x:${namespace.dataDir.slice(-6)}:` } });
    const b = await buildTestApp('sqlite', { namespace, redis: true, config: { cacheKeyPrefix: `isps-x:${namespace.dataDir.slice(-6)}:` } });
    try {
      expect(a.app.eventBus.kind).toBe('redis');
      await a.app.listen({ port: 0, host: '127.0.0.1' });
      const admin = await adminToken(b.app);
      const frankId = await createTestUser(b.app, 'frank');
      const frank = await login(a.app, 'frank', USER_PASSWORD);
      const socket = await openSocket(wsBase(a), frankId, frank);
      try {
        const added = await injectAs<Announcement>(b.app, admin, { method: 'POST', url: api(b.app, AnnouncementPath.add), payload: draft({ msgType: 'USER', userIds: frankId }) });
        const started = Date.now();
        await injectAs(b.app, admin, { method: 'GET', url: api(b.app, `${AnnouncementPath.release}?id=${added.envelope.result.id}`) });
        const pushed = await socket.next((m) => m.msgId === added.envelope.result.id, 15_000);
        expect(Date.now() - started).toBeLessThan(1000);
        expect(pushed.cmd).toBe(RealtimeCmd.user);
        expect(b.app.realtime.connectionCount()).toBe(0);
      } finally {
        await socket.close();
      }
    } finally {
      await a.close();
      await b.close();
      await namespace.drop();
    }
  });
});
