import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilePath, LANGUAGES, UPLOAD_MAX_BYTES, staticFileUrl, translate } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { adminToken, api, buildTestApp, injectAs, testDialects, type TestApp } from '../../test/harness.ts';

// a 1×1 transparent png
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

function multipart(file: Buffer, filename: string, mimetype: string, fields: Record<string, string> = {}) {
  const boundary = `----isps${randomUUID()}`;
  const payload = Buffer.concat([
    ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${mimetype}\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Every file below the upload folder, relative, the temporary folder included. */
function storedFiles(dataDir: string): string[] {
  const root = join(dataDir, 'upload');
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[]).filter((p) => statSync(join(root, p)).isFile());
}

describe.each(await testDialects())('file upload and static reading on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;

  const upload = (file: Buffer, filename: string, mimetype: string, options: { token?: string | null; lang?: string; biz?: string } = {}) => {
    const body = multipart(file, filename, mimetype, options.biz ? { biz: options.biz } : {});
    return injectAs<string>(app, options.token === undefined ? admin : options.token, {
      method: 'POST',
      url: api(app, FilePath.upload),
      payload: body.payload,
      headers: { ...body.headers, lang: options.lang ?? 'en-US' },
    });
  };
  const read = (url: string) => app.inject({ method: 'GET', url, headers: { lang: 'en-US' } });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    app = t.app;
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores an image under the biz folder with a random name and reads it back byte for byte, inline', async () => {
    const answer = await upload(PNG, 'Lobby photo (1).png', 'image/png', { biz: 'annountCement' });
    expect(answer.statusCode).toBe(200);
    expect(answer.envelope.success).toBe(true);
    const stored = answer.envelope.message;
    expect(answer.envelope.result).toBe(stored);
    expect(stored).toMatch(/^annountCement\/\d{8}\/[0-9a-f]{32}_Lobby_photo_1_\.png$/);

    const served = await read(staticFileUrl(app.settings.apiPrefix, stored));
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    // opened in a tab it is a page: it keeps the console's page headers
    expect(served.headers['content-security-policy']).toContain("default-src 'self'");
    expect(String(served.headers['content-disposition'])).toMatch(/^inline; filename="Lobby_photo_1_\.png"/);
  });

  it('serves documents as attachments under their name, any script in the name kept safe', async () => {
    const answer = await upload(PDF, '../../报告 2024.pdf', 'application/pdf');
    const stored = answer.envelope.message;
    expect(stored).toMatch(/^temp\/\d{8}\/[0-9a-f]{32}_报告_2024\.pdf$/);
    const served = await read(staticFileUrl(app.settings.apiPrefix, stored));
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PDF)).toBe(true);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(String(served.headers['content-disposition'])).toBe(`attachment; filename="___2024.pdf"; filename*=UTF-8''${encodeURIComponent('报告_2024.pdf')}`);
  });

  it('answers byte ranges of a video (206 with Content-Range) so a player can seek; an unsatisfiable range is a 416', async () => {
    // an mp4 is recognised by 'ftyp' at byte 4; the rest is numbered bytes, so any slice is known
    const video = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251))]);
    const stored = (await upload(video, 'walkthrough.mp4', 'video/mp4', { biz: 'annountCement' })).envelope.message;
    const url = staticFileUrl(app.settings.apiPrefix, stored);
    const ranged = (range: string) => app.inject({ method: 'GET', url, headers: { lang: 'en-US', range } });

    const whole = await read(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(video)).toBe(true);

    const middle = await ranged('bytes=100-199');
    expect(middle.statusCode).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes 100-199/${video.length}`);
    expect(middle.headers['content-length']).toBe('100');
    expect(middle.headers['content-type']).toBe('video/mp4');
    expect(String(middle.headers['content-disposition'])).toMatch(/^inline; filename="walkthrough\.mp4"/);
    expect(middle.rawPayload.equals(video.subarray(100, 200))).toBe(true);

    const open = await ranged('bytes=1000-');
    expect(open.statusCode).toBe(206);
    expect(open.headers['content-range']).toBe(`bytes 1000-${video.length - 1}/${video.length}`);
    expect(open.rawPayload.equals(video.subarray(1000))).toBe(true);

    const tail = await ranged('bytes=-12');
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(video.subarray(video.length - 12))).toBe(true);

    const beyond = await ranged(`bytes=${video.length}-`);
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${video.length}`);
    expect(beyond.json()).toMatchObject({ success: false, code: 416, message: `The requested range lies outside the file (${video.length} bytes)` });
  });

  it('refuses types that are not allowed, and content that does not match its extension, in the caller language', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const lang of LANGUAGES) {
      const answer = await upload(svg, 'logo.svg', 'image/svg+xml', { lang });
      expect(answer.statusCode).toBe(200);
      expect(answer.envelope).toMatchObject({ success: false, code: 500, message: translate(lang, 'upload.typeRefused', { name: 'logo.svg' }) });
    }
    const exe = await upload(Buffer.from('MZ\x90\x00'), 'setup.exe', 'application/octet-stream', { lang: 'ja-JP' });
    expect(exe.envelope).toMatchObject({ success: false, code: 500, message: translate('ja-JP', 'upload.typeRefused', { name: 'setup.exe' }) });
    const disguised = await upload(Buffer.from('MZ\x90\x00 not a picture'), 'cat.png', 'image/png', { lang: 'zh-CN' });
    expect(disguised.envelope).toMatchObject({ success: false, code: 500, message: translate('zh-CN', 'upload.contentMismatch', { name: 'cat.png' }) });
    expect(storedFiles(t.namespace.dataDir).filter((p) => /logo|setup|cat/.test(p))).toEqual([]);
  });

  it('refuses a file over the size limit with a clean 400 and stores nothing', async () => {
    const before = storedFiles(t.namespace.dataDir);
    const big = Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_BYTES + 1 - PNG.length + 16)]);
    for (const lang of LANGUAGES) {
      const answer = await upload(big, 'huge.png', 'image/png', { lang });
      expect(answer.statusCode).toBe(400);
      expect(answer.envelope).toMatchObject({ success: false, code: 400, message: translate(lang, 'upload.tooLarge', { max: 10 }) });
    }
    expect(storedFiles(t.namespace.dataDir)).toEqual(before);
  });

  it('refuses bad folders, a missing file and an upload without a token', async () => {
    const badFolder = await upload(PNG, 'a.png', 'image/png', { biz: '../etc' });
    expect(badFolder.statusCode).toBe(400);
    expect(badFolder.envelope.message).toBe(translate('en-US', 'upload.badFolder'));
    const noFile = await injectAs(app, admin, { method: 'POST', url: api(app, FilePath.upload), payload: {}, headers: { lang: 'en-US' } });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.envelope.message).toBe(translate('en-US', 'upload.noFile'));
    const anonymous = await upload(PNG, 'a.png', 'image/png', { token: null });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.envelope.code).toBe(401);
  });

  it('reads multipart bodies on the upload routes only: elsewhere one is bad input, and a malformed one is refused in the caller\'s language', async () => {
    // the multipart parser and its per-request hooks belong to the upload routes' own context
    expect(app.hasRequestDecorator('isMultipart')).toBe(false);
    expect(app.hasContentTypeParser('multipart/form-data')).toBe(false);
    const body = multipart(PNG, 'a.png', 'image/png');
    const elsewhere = await injectAs(app, admin, { method: 'POST', url: api(app, '/sys/user/updatePassword'), payload: body.payload, headers: { ...body.headers, lang: 'en-US' } });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.envelope).toMatchObject({ success: false, code: 400 });
    for (const lang of LANGUAGES) {
      const cut = await injectAs(app, admin, { method: 'POST', url: api(app, FilePath.upload), payload: body.payload.subarray(0, body.payload.length - 20), headers: { ...body.headers, lang } });
      expect(cut.statusCode).toBe(400);
      expect(cut.envelope.message).toBe(translate(lang, 'upload.malformed'));
    }
  });

  it('never reads outside the upload folder, and answers 404 for a missing file', async () => {
    const base = `${app.settings.apiPrefix}/sys/common/static/`;
    const attempts = [
      '../../isps.db',
      '..%2F..%2Fisps.db',
      '%2e%2e/%2e%2e/isps.db',
      'annountCement/20250101/%2e%2e%2f%2e%2e%2fisps.db',
      '%2Fetc%2Fpasswd',
      '/etc/passwd',
      'annountCement\\..\\..\\isps.db',
      `temp/20250101/${'0'.repeat(32)}_..`,
      '.partial/x.part',
    ];
    for (const attempt of attempts) {
      const answer = await read(`${base}${attempt}`);
      expect(answer.statusCode, attempt).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode, attempt).toBeLessThan(500);
      expect(answer.json(), attempt).toMatchObject({ success: false });
      expect(answer.body).not.toContain('SQLite');
    }
    const missing = await read(`${base}temp/20250101/${'0'.repeat(32)}_gone.png`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ success: false, code: 404 });
  });
});
