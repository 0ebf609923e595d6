import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { Readable, Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { crudPath, positionEntity as position, translate, type ImportReport } from '@isps/contract';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { uploadFile, workbookOf } from '../../test/crud-helpers.ts';
import { adminToken, api, buildTestApp, injectAs, testDialects, type TestApp } from '../../test/harness.ts';

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  req?: { url?: string };
  err?: { message?: string; stack?: string };
}

/** Every line the app's pino logger writes from now on (request loggers are its children and share its stream). */
function captureLog(app: FastifyInstance): LogLine[] {
  const lines: LogLine[] = [];
  const streamSym = Object.getOwnPropertySymbols(app.log).find((s) => s.description === 'pino.stream');
  if (!streamSym) throw new Error('no pino stream on the app logger');
  (app.log as unknown as Record<symbol, unknown>)[streamSym] = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };
  return lines;
}

/** A multipart body of one workbook, sent as a stream of tiny chunks with pauses, as a slow network delivers it. */
function trickledUpload(file: Buffer) {
  const boundary = `----isps${randomUUID()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="data.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  async function* chunks() {
    for (let at = 0; at < body.length; at += 97) {
      yield body.subarray(at, at + 97);
      if (at % (97 * 16) === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
  return { payload: Readable.from(chunks()), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, lang: 'en-US' } };
}

const reader = ExcelJS.stream.xlsx.WorkbookReader.prototype as unknown as { _parseStyles(entry: unknown): Promise<void> };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/* Issue #33: one file gives one answer, whatever the disk, the network or the load are doing. */
describe.each(await testDialects())('a workbook reads the same whatever the timing on %s', (dialect) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let log: LogLine[];
  const noColumns = () => workbookOf(['nothing known'], [['x']]);
  const unknownColumns = { success: false, message: translate('en-US', 'crud.importUnknownColumns') };
  const importUrl = () => api(app, crudPath(position, 'importExcel'));

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { LOG_LEVEL: 'info' } });
    app = t.app;
    log = captureLog(app);
    admin = await adminToken(app);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads every part of a workbook when the reader is slower than the unzip parser (a slow disk, a slow parse)', async () => {
    // the temporary files exceljs writes a worksheet to (before the shared strings) are slow, as on a busy disk
    const createWriteStream = fs.createWriteStream;
    vi.spyOn(fs, 'createWriteStream').mockImplementation(((path: fs.PathLike, options?: Parameters<typeof createWriteStream>[1]) => {
      const file = createWriteStream(path, options);
      if (!String(path).startsWith(tmpdir())) return file;
      return new Writable({
        write: (chunk: Buffer, _encoding, done) => void setTimeout(() => file.write(chunk, done), 20),
        final: (done) => void setTimeout(() => file.end(done), 20),
      });
    }) as typeof fs.createWriteStream);
    // and one part of the reader's own work takes a while, as under load
    const parseStyles = reader._parseStyles;
    vi.spyOn(reader, '_parseStyles').mockImplementation(async function (this: unknown, entry: unknown) {
      await pause(30);
      return parseStyles.call(this, entry);
    });
    const refused = await uploadFile(app, admin, crudPath(position, 'importExcel'), await noColumns(), 'en-US');
    expect(refused.envelope).toMatchObject(unknownColumns);
    const imported = await uploadFile(app, admin, crudPath(position, 'importExcel'), await workbookOf(['Position code', 'Position name', 'Rank'], [['SLOW1', 'Slow one', '1']]), 'en-US');
    expect(imported.envelope.result as ImportReport).toMatchObject({ total: 1, added: 1, failed: 0 });
  });

  it('gives the refusal of a file nobody could import every time, one after another, at once, and trickled in', async () => {
    const file = await noColumns();
    for (let i = 0; i < 30; i++) expect((await injectAs(app, admin, { method: 'POST', url: importUrl(), ...trickledUpload(file) })).envelope).toMatchObject(unknownColumns);
    const together = await Promise.all(Array.from({ length: 30 }, () => injectAs(app, admin, { method: 'POST', url: importUrl(), ...trickledUpload(file) })));
    for (const answer of together) expect(answer.envelope).toMatchObject(unknownColumns);
  });

  it('logs why a file could not be read at warn, with the request id and without the file’s content', async () => {
    const secret = 'SECRET-CELL-4711';
    const good = await workbookOf(['Position code'], [[secret]]);
    // a workbook whose parts are cut short, and a text file named .xlsx
    const cut = Buffer.concat([good.subarray(0, 40), Buffer.alloc(200), good.subarray(240)]);
    for (const file of [cut, Buffer.from(`${secret}\n`.repeat(50))]) {
      const from = log.length;
      const answer = await uploadFile(app, admin, crudPath(position, 'importExcel'), file, 'ja-JP');
      expect(answer.envelope).toMatchObject({ success: false, code: 500, message: translate('ja-JP', 'crud.importBadFile') });
      const lines = log.slice(from);
      const warning = lines.find((l) => l.msg === 'import file not readable');
      expect(warning).toMatchObject({ level: 40, reqId: expect.any(String) as string, err: { message: expect.any(String) as string } });
      // the id is the one of the upload's request
      const incoming = lines.find((l) => l.reqId === warning?.reqId && l.msg === 'incoming request');
      expect(incoming?.req?.url).toBe(importUrl());
      expect(JSON.stringify(lines)).not.toContain(secret);
    }
  });
});
