import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, type UiLanguage } from './catalogues.ts';
import { dialog, openInApp, openSignedIn, pageArea, rows } from './crud-page.ts';
import { launchBrowser, screenshot, signedInState, startAsAdmin, type AdminSession, type SignedInState } from './harness.ts';

// The integration screens as a person sees them: an API key made in the console and shown once, and the webhook
// list with its form. What keys and webhooks do is apps/server/src/modules/system/api-key.test.ts and
// apps/server/src/modules/webhook/webhook.test.ts.
const PASSWORD = 'Integrate#E2e1';
const KEYS = '/system/apiKey';
const HOOKS = '/system/webhook';

let session: AdminSession;
let browser: Browser;
let signedIn: SignedInState;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  session = await startAsAdmin(PASSWORD);
  signedIn = await signedInState(session.server, 'admin', PASSWORD);
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await session?.server.stop();
});

describe('the integration screens', () => {
  for (const [lang, viewport] of [['zh-CN', 'desktop'], ['en-US', 'mobile']] as [UiLanguage, 'desktop' | 'mobile'][]) {
    it(`in ${lang} on ${viewport}: an API key made through its dialog is shown once and listed; the webhooks list opens its form`, { timeout: 60_000 }, async () => {
      const page = await openSignedIn(browser, contexts, signedIn, session.server.url, [KEYS, lang, viewport]);
      const keys = pageArea(page, KEYS);
      await keys.getByText(text(lang, 'apiKey.intro')).waitFor();
      await keys.getByRole('button', { name: text(lang, 'apiKey.create') }).click();
      const form = dialog(page);
      const name = `Door kiosk ${lang}`;
      await form.getByLabel(text(lang, 'apiKey.field.name')).fill(name);
      // the first area of the permission tree: the dashboard's codes, all of them the administrator's own
      await form.locator('.ant-tree-checkbox').first().click();
      await screenshot(page, `api-key-create-${lang}-${viewport}`);
      await form.getByRole('button', { name: text(lang, 'apiKey.createOk') }).click();
      // the key itself, this once
      const secret = page.getByTestId('api-key-secret');
      await secret.waitFor();
      expect(await secret.innerText()).toMatch(/^isps_[0-9a-f]{16}\./);
      await screenshot(page, `api-key-secret-${lang}-${viewport}`);
      await page.getByRole('button', { name: text(lang, 'apiKey.secretDone') }).click();
      await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
      await rows(keys).filter({ hasText: name }).first().waitFor();
      // listed without the key
      expect(await keys.getByTestId('api-key-secret').count()).toBe(0);
      await screenshot(page, `api-key-list-${lang}-${viewport}`);

      await openInApp(page, HOOKS);
      const hooks = pageArea(page, HOOKS);
      await hooks.getByRole('button', { name: text(lang, 'crud.add') }).first().click();
      await dialog(page).waitFor();
      await screenshot(page, `webhook-form-${lang}-${viewport}`);
      expect(await rows(hooks).count()).toBe(0);
    });
  }
});
