import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crudPath, DoorPath, doorEntity, FLOOR_PLAN_MAX_BYTES, FloorPlanPath, type DoorFloorPlan, type FloorPlan, type FloorPlanPlacement } from '@isps/contract';
import { createRoleWith } from '../../test/crud-helpers.ts';
import { adminToken, api, buildTestApp, createTestUser, injectAs, login, testDialects, USER_PASSWORD, type TestApp } from '../../test/harness.ts';

const dialects = await testDialects();
/** a 1×1 PNG */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe.each(dialects)('floor plans on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let areaId: string;
  let doorId: string;
  let deviceId: string;
  let otherDoorId: string;

  async function call<T = unknown>(method: 'POST' | 'PUT' | 'GET' | 'DELETE', path: string, payload?: unknown, token = admin, lang = 'en-US') {
    return injectAs<T>(t.app, token, { method, url: api(t.app, path), ...(payload ? { payload: payload as Record<string, unknown> } : {}), headers: { lang } });
  }
  /** The plan upload as the console sends it: the area first, then the file. */
  function upload(token: string, area: string, name: string, file: Buffer, lang = 'en-US') {
    const boundary = `----isps${randomUUID()}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="areaId"\r\n\r\n${area}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return injectAs<{ image: string }>(t.app, token, { method: 'POST', url: api(t.app, FloorPlanPath.upload), payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, lang } });
  }
  const added = async (path: string, body: Record<string, unknown>) => {
    const answer = await call<{ id: string }>('POST', path, body);
    expect(answer.envelope.success, answer.envelope.message).toBe(true);
  };
  const idOf = async (table: 'sys_area' | 'sys_device' | 'sys_door', column: 'area_name' | 'device_name' | 'door_name', value: string) =>
    (await t.app.db.selectFrom(table).select('id').where(column as never, '=', value as never).executeTakeFirstOrThrow()).id as string;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await adminToken(t.app);
    await added('/sysArea/add', { areaName: 'Plan hall' });
    await added('/sysArea/add', { areaName: 'Plan annex' });
    areaId = await idOf('sys_area', 'area_name', 'Plan hall');
    const annexId = await idOf('sys_area', 'area_name', 'Plan annex');
    await added('/sysDevice/add', { deviceName: 'Plan controller', sn: 'PLAN-0001', systemType: 'abDoor', deviceKind: '1', location: 1, areaId });
    await added('/sysDevice/add', { deviceName: 'Annex controller', sn: 'PLAN-0002', systemType: 'abDoor', deviceKind: '1', location: 1, areaId: annexId });
    deviceId = await idOf('sys_device', 'device_name', 'Plan controller');
    // a door takes its device's area
    await added(crudPath(doorEntity, 'add'), { doorName: 'Plan gate', deviceId, doorNo: 1 });
    await added(crudPath(doorEntity, 'add'), { doorName: 'Annex gate', deviceId: await idOf('sys_device', 'device_name', 'Annex controller'), doorNo: 1 });
    doorId = await idOf('sys_door', 'door_name', 'Plan gate');
    otherDoorId = await idOf('sys_door', 'door_name', 'Annex gate');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores an image and the places of the area’s doors and devices, read back as fractions, and lists the plan for the door status page', async () => {
    const before = await call<FloorPlan>('GET', `${FloorPlanPath.get}?areaId=${areaId}`);
    expect(before.envelope.result).toMatchObject({ areaId, areaName: 'Plan hall', image: null, placements: [] });
    expect(before.envelope.result.items.map((i) => [i.kind, i.name]).sort()).toEqual([['device', 'Plan controller'], ['door', 'Plan gate']]);
    // no places before there is an image to place them on
    const early = await call('PUT', FloorPlanPath.save, { areaId, placements: [{ kind: 'door', id: doorId, x: 0.5, y: 0.5 }] });
    expect(early.envelope).toMatchObject({ success: false, message: 'The area has no floor-plan image yet: upload one first' });

    const stored = await upload(admin, areaId, 'hall.png', PNG);
    expect(stored.envelope, stored.envelope.message).toMatchObject({ success: true, message: 'The floor-plan image is stored' });
    const image = stored.envelope.result.image;
    expect(image).toMatch(/^floorPlan\/\d{8}\/[0-9a-f]{32}_hall\.png$/);
    // the image is served like any upload
    const served = await t.app.inject({ method: 'GET', url: api(t.app, `/sys/common/static/${image}`) });
    expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'image/png']);

    // read back doors first
    const placements: FloorPlanPlacement[] = [
      { kind: 'door', id: doorId, x: 0.25, y: 0.75 },
      { kind: 'device', id: deviceId, x: 1, y: 0 },
    ];
    const saved = await call<FloorPlanPlacement[]>('PUT', FloorPlanPath.save, { areaId, placements });
    expect(saved.envelope).toMatchObject({ success: true, message: 'The floor plan is saved' });
    const read = await call<FloorPlan>('GET', `${FloorPlanPath.get}?areaId=${areaId}`);
    expect(read.envelope.result.image).toBe(image);
    expect(read.envelope.result.placements).toEqual(placements);

    // saving again replaces the places
    await call('PUT', FloorPlanPath.save, { areaId, placements: [{ kind: 'door', id: doorId, x: 0.4, y: 0.6 }] });
    expect((await call<FloorPlan>('GET', `${FloorPlanPath.get}?areaId=${areaId}`)).envelope.result.placements).toEqual([{ kind: 'door', id: doorId, x: 0.4, y: 0.6 }]);

    const plans = await call<DoorFloorPlan[]>('GET', FloorPlanPath.plans);
    expect(plans.envelope.result).toEqual([{ areaId, areaName: 'Plan hall', image, doors: [{ id: doorId, x: 0.4, y: 0.6 }] }]);
  });

  it('refuses places off the image, of another area’s door, twice, and bad input, with localised messages and never a 500', async () => {
    if (!(await t.app.db.selectFrom('sys_area').select('floor_plan').where('id', '=', areaId).executeTakeFirstOrThrow()).floor_plan) await upload(admin, areaId, 'hall.png', PNG);
    const off = await call('PUT', FloorPlanPath.save, { areaId, placements: [{ kind: 'door', id: doorId, x: 1.5, y: 0.5 }] }, admin, 'zh-CN');
    expect(off.envelope).toMatchObject({ success: false, message: '位置必须在图片范围内（宽度和高度的 0 到 1）' });
    const foreignDoor = await call('PUT', FloorPlanPath.save, { areaId, placements: [{ kind: 'door', id: otherDoorId, x: 0.5, y: 0.5 }] }, admin, 'ja-JP');
    expect(foreignDoor.envelope).toMatchObject({ success: false, message: 'プランに配置できるのはこのエリアのドアとデバイスだけです' });
    const twice = await call('PUT', FloorPlanPath.save, { areaId, placements: [{ kind: 'door', id: doorId, x: 0.5, y: 0.5 }, { kind: 'door', id: doorId, x: 0.1, y: 0.1 }] });
    expect(twice.envelope).toMatchObject({ success: false, message: 'A door or device can be placed only once on a plan' });
    const badKind = await call('PUT', FloorPlanPath.save, { areaId, placements: [{ kind: 'camera', id: doorId, x: 0.5, y: 0.5 }] });
    expect([badKind.statusCode, badKind.envelope.success]).toEqual([400, false]);
    const unknownArea = await call('GET', `${FloorPlanPath.get}?areaId=${randomUUID()}`);
    expect(unknownArea.envelope).toMatchObject({ success: false });
    expect(unknownArea.statusCode).toBeLessThan(500);
  });

  it('takes only images of at most 5 MB for a plan, refusing in the reader’s language', async () => {
    const text = await upload(admin, areaId, 'plan.pdf', Buffer.from('%PDF-1.4 not an image'), 'en-US');
    expect(text.envelope).toMatchObject({ success: false, message: 'A floor plan must be an image (png, jpg, gif or webp): plan.pdf is not one' });
    const textZh = await upload(admin, areaId, 'plan.txt', Buffer.from('hello'), 'zh-CN');
    expect(textZh.envelope.message).toBe('平面图必须是图片（png、jpg、gif 或 webp）：plan.txt 不是图片');
    // an image name on other content is refused by its content
    const disguised = await upload(admin, areaId, 'fake.png', Buffer.from('GIF89a not a png'), 'en-US');
    expect(disguised.envelope).toMatchObject({ success: false, message: 'The content of fake.png does not match its file type' });
    const large = Buffer.concat([PNG, Buffer.alloc(FLOOR_PLAN_MAX_BYTES + 1024)]);
    const tooLarge = await upload(admin, areaId, 'huge.png', large, 'ja-JP');
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.envelope).toMatchObject({ success: false, message: 'フロアプラン画像が大きすぎます：最大 5 MB' });
    // nothing refused replaced the plan's image
    const image = (await call<FloorPlan>('GET', `${FloorPlanPath.get}?areaId=${areaId}`)).envelope.result.image;
    expect(image).toMatch(/_hall\.png$/);
  });

  it('is edited with the area’s edit permission only, read by door status viewers, and opens a door only with device:door:open', async () => {
    await createRoleWith(t.app, `plan_viewer_${dialect}`, ['device:area:list', 'device:doorStatus:view', 'device:door:list']);
    await createTestUser(t.app, `planviewer-${dialect}`, { roles: [`plan_viewer_${dialect}`] });
    const viewer = await login(t.app, `planviewer-${dialect}`, USER_PASSWORD);
    expect((await call<FloorPlan>('GET', `${FloorPlanPath.get}?areaId=${areaId}`, undefined, viewer)).envelope.success).toBe(true);
    expect((await call<DoorFloorPlan[]>('GET', FloorPlanPath.plans, undefined, viewer)).envelope.result.map((p) => p.areaId)).toEqual([areaId]);
    const save = await call('PUT', FloorPlanPath.save, { areaId, placements: [] }, viewer);
    expect([save.statusCode, save.envelope.code]).toEqual([403, 510]);
    expect((await upload(viewer, areaId, 'hall.png', PNG)).statusCode).toBe(403);
    expect((await call('DELETE', `${FloorPlanPath.removeImage}?areaId=${areaId}`, undefined, viewer)).statusCode).toBe(403);
    // the plan's door opens through the door's own call, which refuses without device:door:open
    const opened = await call('POST', DoorPath.open, { id: doorId }, viewer);
    expect([opened.statusCode, opened.envelope.code, opened.envelope.success]).toEqual([403, 510, false]);
  });

  it('keeps each tenant’s plans to itself: another tenant cannot read, place on or upload to this one’s area', async () => {
    const otherTenant = randomUUID();
    await t.app.db.insertInto('sys_tenant').values({ id: otherTenant, name: 'Plan other', code: `plan-${otherTenant.slice(0, 8)}`, begin_date: null, end_date: null, status: 1, create_by: 'test', create_time: null, update_by: null, update_time: null }).execute();
    await createRoleWith(t.app, `plan_editor_${dialect}`, ['device:area:list', 'device:area:edit', 'device:doorStatus:view']);
    await createTestUser(t.app, `planforeign-${dialect}`, { roles: [`plan_editor_${dialect}`], tenantId: otherTenant });
    const foreign = await login(t.app, `planforeign-${dialect}`, USER_PASSWORD);
    const before = await call<FloorPlan>('GET', `${FloorPlanPath.get}?areaId=${areaId}`);
    const read = await call('GET', `${FloorPlanPath.get}?areaId=${areaId}`, undefined, foreign);
    expect(read.envelope).toMatchObject({ success: false, result: null });
    expect((await call<DoorFloorPlan[]>('GET', FloorPlanPath.plans, undefined, foreign)).envelope.result).toEqual([]);
    const placed = await call('PUT', FloorPlanPath.save, { areaId, placements: [] }, foreign);
    expect(placed.envelope.success).toBe(false);
    expect((await upload(foreign, areaId, 'mine.png', PNG)).envelope.success).toBe(false);
    expect((await call('DELETE', `${FloorPlanPath.removeImage}?areaId=${areaId}`, undefined, foreign)).envelope.success).toBe(false);
    const after = await call<FloorPlan>('GET', `${FloorPlanPath.get}?areaId=${areaId}`);
    expect(after.envelope.result).toEqual(before.envelope.result);
  });

  it('removes the image with the places on it, and an area’s deletion takes its places', async () => {
    const removed = await call('DELETE', `${FloorPlanPath.removeImage}?areaId=${areaId}`);
    expect(removed.envelope).toMatchObject({ success: true, message: 'The floor-plan image is removed, with the places on it' });
    expect((await call<FloorPlan>('GET', `${FloorPlanPath.get}?areaId=${areaId}`)).envelope.result).toMatchObject({ image: null, placements: [] });
    expect((await call<DoorFloorPlan[]>('GET', FloorPlanPath.plans)).envelope.result).toEqual([]);
    await upload(admin, areaId, 'hall.png', PNG);
    await call('PUT', FloorPlanPath.save, { areaId, placements: [{ kind: 'door', id: doorId, x: 0.5, y: 0.5 }] });
    const deleted = await call('DELETE', `/sysArea/delete?id=${areaId}`);
    expect(deleted.envelope.success, deleted.envelope.message).toBe(true);
    expect(await t.app.db.selectFrom('sys_floor_plan_item').select('id').where('area_id', '=', areaId).execute()).toEqual([]);
  });
});
