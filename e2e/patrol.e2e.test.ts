import type { Page as PageOf } from '@isps/contract';
import { SimDevice, provisionDevices, walkRoute } from '../tools/device-sim/src/index.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { addRow, dialog, label, pickOption, rows, waitForRow, openSignedIn, openInApp } from './crud-page.ts';
import { adminSessionOn, freePort, launchBrowser, screenshot, signedInState, startServer, viewports, type AdminSession, type SignedInState } from './harness.ts';

// One server (in UTC) with its embedded broker and three simulated patrol points a guard walks.
const PASSWORD = 'Patrol#E2e1';
const SNS = ['PATROL-0001', 'PATROL-0002', 'PATROL-0003'];
const MINUTE = 60_000;

let session: AdminSession;
let browser: Browser;
let signedIn: SignedInState;
const sims: SimDevice[] = [];
const contexts: BrowserContext[] = [];
/** the watch time of the three points: this minute, in UTC */
let watchTime = '';

beforeAll(async () => {
  const mqttPort = await freePort();
  session = await adminSessionOn(await startServer({ MQTT_PORT: String(mqttPort), TIME_ZONE: 'UTC' }), PASSWORD);
  const keys = await provisionDevices(`${session.server.url}/api`, session.token, SNS);
  for (const sn of SNS) {
    const sim = new SimDevice({ url: `mqtt://127.0.0.1:${mqttPort}`, sn, key: keys.get(sn)!, kind: 'patrol' });
    await sim.start();
    sims.push(sim);
  }
  for (const until = Date.now() + 15_000; (await session.call<PageOf<{ online: number }>>('GET', '/sysDevice/list?pageNo=1&pageSize=10')).records.filter((d) => d.online === 1).length < SNS.length; ) {
    if (Date.now() > until) throw new Error('the patrol points did not say hello');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await session.call('POST', '/sysPeople/add', { name: 'Gus Guard', userNo: 'G001', cardNo: 'GUARDCARD0001' });
  // the patrol group (a group flagged for patrol, with its time setting) the missions give routes to
  await session.call('POST', '/sys/sysDepart/add', { departName: 'Night guards', departOrder: 0, patrolGroup: 1, timeSetting: '{"mode":"permanent"}' });
  watchTime = new Date().toISOString().slice(11, 16);
  signedIn = await signedInState(session.server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  for (const sim of sims) await sim.stop();
  await browser?.close();
  await session?.server.stop();
});

function open(path: string, lang: UiLanguage = 'en-US', viewport: keyof typeof viewports = 'desktop'): Promise<Page> {
  return openSignedIn(browser, contexts, signedIn, session.server.url, [path, lang, viewport]);
}

describe('patrol', () => {
  it('a route with its points and a mission make today’s task; a guard’s walk shows its progress, point checks and records live', { timeout: 240_000 }, async () => {
    const routes = await open('/watch/watch');
    await addRow(routes, async (form) => {
      await form.getByLabel(label('patrolRoute.field.routeName')).fill('Yard round');
      await form.getByLabel(label('patrolRoute.field.description')).fill('Gates of the yard, any order');
    });
    // every weekday by default, 10 minutes either side
    await rows(routes).filter({ hasText: 'Yard round' }).filter({ hasText: label('patrol.weekDay.1') }).filter({ hasText: label('patrol.weekDay.7') }).waitFor();

    const points = await open('/watch/position');
    for (const [i, sn] of SNS.entries()) {
      await addRow(points, async (form) => {
        await pickOption(points, form.getByLabel(label('patrolPoint.field.routeId')), 'Yard round');
        await form.getByLabel(label('patrolPoint.field.placeName')).fill(`Gate ${i + 1}`);
        await pickOption(points, form.getByLabel(label('patrolPoint.field.deviceId')), sn);
        await form.getByLabel(label('patrolPoint.field.watchTime')).fill(watchTime);
        await form.getByLabel(label('patrolPoint.field.sortNo')).fill(String(i + 1));
      });
      await waitForRow(points, `Gate ${i + 1}`);
    }

    const missions = await open('/watch/mission');
    await addRow(missions, async (form) => {
      await form.getByLabel(label('patrolMission.field.missionName')).fill('Night round');
      await pickOption(missions, form.getByLabel(label('patrolMission.field.routeId')), 'Yard round');
      await pickOption(missions, form.getByLabel(label('patrolMission.field.departId')), 'Night guards');
    });
    await rows(missions).filter({ hasText: 'Night round' }).filter({ hasText: 'Night guards' }).waitFor();

    const tasks = await open('/watch/task');
    await tasks.getByRole('button', { name: label('patrolTask.generate') }).click();
    const task = rows(tasks).filter({ hasText: 'Night round' });
    await task.filter({ hasText: label('patrol.taskState.pending') }).waitFor();
    await task.locator('[data-progress="0/3"]').waitFor();

    // the guard checks in at the first gate on time, passes the second by, and reaches the third 15 minutes late
    await tasks.evaluate(() => ((window as unknown as { mark?: boolean }).mark = true));
    await walkRoute(sims, { userNo: 'G001', skip: [1], lateBy: { index: 2, ms: 15 * MINUTE } });
    await task.locator('[data-progress="2/3"]').waitFor({ timeout: 15_000 });
    await task.filter({ hasText: label('patrol.taskState.inProgress') }).waitFor();
    expect(await tasks.evaluate(() => (window as unknown as { mark?: boolean }).mark)).toBe(true);
    await screenshot(tasks, 'patrol-task-progress-en-US-1440');
    await task.getByRole('button', { name: label('patrolQuest.title') }).click();
    const checks = dialog(tasks);
    await checks.locator('tr.ant-table-row').filter({ hasText: 'Gate 1' }).filter({ hasText: label('patrol.questResult.onTime') }).filter({ hasText: 'Gus Guard' }).waitFor();
    await checks.locator('tr.ant-table-row').filter({ hasText: 'Gate 2' }).filter({ hasText: label('patrol.questResult.pending') }).waitFor();
    await checks.locator('tr.ant-table-row').filter({ hasText: 'Gate 3' }).filter({ hasText: label('patrol.questResult.late') }).waitFor();
    await screenshot(tasks, 'patrol-task-quests-en-US-1440');
    await checks.getByRole('button', { name: 'Close' }).click();

    const quests = await open('/watch/quest');
    await rows(quests).filter({ hasText: 'Gate 3' }).filter({ hasText: label('patrol.questResult.late') }).waitFor();
    const records = await open('/watch/record');
    await rows(records).filter({ hasText: 'Gate 1' }).filter({ hasText: label('patrol.recordResult.onTime') }).filter({ hasText: 'Gus Guard' }).waitFor();
    await rows(records).filter({ hasText: 'Gate 3' }).filter({ hasText: label('patrol.recordResult.late') }).waitFor();
    // the passed-by gate reached after its late allowance: recorded as after a missed point, live
    await sims[1]!.checkIn('P2', 'G001', Date.now() + 25 * MINUTE);
    await expect.poll(async () => (await rows(records).allInnerTexts()).join('\n'), { timeout: 15_000 }).toContain(label('patrol.recordResult.missed'));
  });

  it('reads in every language, at 1440 and 375 px', { timeout: 600_000 }, async () => {
    const screens = ['/watch/watch', '/watch/position', '/watch/mission', '/watch/task', '/watch/quest', '/watch/record'];
    for (const lang of ['zh-CN', 'en-US', 'ja-JP'] as const satisfies readonly UiLanguage[]) {
      for (const viewport of ['desktop', 'mobile'] as const) {
        const page = await open(screens[0]!, lang, viewport);
        for (const path of screens) {
          // the first screen is open: the others are reached inside the console, as from its menu
          if (path !== screens[0]) await openInApp(page, path);
          await page.locator('.ant-table-tbody, [data-testid="crud-cards"]').first().waitFor({ state: 'attached' });
          await page.locator('.ant-spin-spinning').first().waitFor({ state: 'detached' }).catch(() => undefined);
          // every screen holds rows of the walk above
          await rows(page).first().waitFor();
          if (viewport === 'mobile') await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.mobile.width);
          await screenshot(page, `patrol-${path.split('/')[2]}-${lang}-${viewport === 'desktop' ? 1440 : 375}`);
        }
        // the route form, in this language
        await openInApp(page, '/watch/watch');
        await page.getByRole('button', { name: text(lang, 'crud.add') }).click();
        await dialog(page).waitFor();
        await screenshot(page, `patrol-watch-form-${lang}-${viewport === 'desktop' ? 1440 : 375}`);
        await page.context().close();
      }
    }
  });
});
