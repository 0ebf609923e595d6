/**
 * import-10k: 10,000 users (name, real name, phone, a role and a group by name) uploaded as one xlsx to
 * POST /api/sys/user/importExcel with one initial password, on SQLite; timed from the upload until the job's status
 * call reports it finished. Baseline: the same rows, one hash of the same password, their role and group links,
 * inserted straight into the same database with batched inserts in the same run. Ratio = baseline ÷ import time;
 * target: the import takes <= 60 s and adds every row.
 */
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { ImportJobState, crudPath, departEntity, entityLabel, importJobPath, roleEntity, userEntity, type Envelope, type ImportJob } from '@isps/contract';
import { finish, report, startConsole } from './support.ts';

const ROWS = 10_000;
const PASSWORD = 'Import#Pass5';
const TARGET_SECONDS = 60;

async function workbook(prefix: string, role: string, group: string): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = writer.addWorksheet('users');
  sheet.addRow(['user.field.username', 'user.field.realname', 'user.field.phone', 'user.field.roles', 'user.field.departs'].map((key) => entityLabel('en-US', key))).commit();
  for (let i = 0; i < ROWS; i++) sheet.addRow([`${prefix}${String(i).padStart(5, '0')}`, `Imported ${i}`, `137${String(i).padStart(8, '0')}`, role, group]).commit();
  sheet.commit();
  await writer.commit();
  return Buffer.concat(chunks);
}

const bench = await startConsole('sqlite');
try {
  const { app, url, token, tenantId } = bench;
  const headers = { 'X-Access-Token': token, lang: 'en-US' };
  const call = async <T>(method: string, path: string, body?: unknown) =>
    (await (await fetch(`${url}/api${path}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) })).json()) as Envelope<T>;
  await call('POST', crudPath(roleEntity, 'add'), { roleName: 'Importers', roleCode: 'importers' });
  await call('POST', crudPath(departEntity, 'add'), { departName: 'Imported staff' });
  const file = await workbook('imp', 'Importers', 'Imported staff');

  // the baseline: one hash, then the users and their links in batches of 500, each batch one transaction
  const role = await app.db.selectFrom('sys_role').select('id').where('role_code', '=', 'importers').executeTakeFirstOrThrow();
  const group = await app.db.selectFrom('sys_depart').select(['id', 'org_code']).where('depart_name', '=', 'Imported staff').executeTakeFirstOrThrow();
  const baselineStarted = performance.now();
  const hash = await app.hasher.hash(PASSWORD);
  const now = new Date().toISOString();
  const audit = { create_by: 'bench', create_time: now, update_by: null, update_time: null };
  for (let from = 0; from < ROWS; from += 500) {
    const ids = Array.from({ length: Math.min(500, ROWS - from) }, () => randomUUID());
    await app.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sys_user')
        .values(ids.map((id, k) => ({ ...audit, id, username: `base${String(from + k).padStart(5, '0')}`, realname: `Baseline ${from + k}`, nickname: null, password: hash, avatar: null, birthday: null, sex: null, email: null, phone: `136${String(from + k).padStart(8, '0')}`, org_code: group.org_code, status: 1, del_flag: 0, work_no: null, must_change_password: 1, tenant_id: tenantId })))
        .execute();
      await trx.insertInto('sys_user_role').values(ids.map((id) => ({ ...audit, id: randomUUID(), user_id: id, role_id: role.id }))).execute();
      await trx.insertInto('sys_user_depart').values(ids.map((id) => ({ ...audit, id: randomUUID(), user_id: id, dep_id: group.id }))).execute();
    });
  }
  const baselineSeconds = (performance.now() - baselineStarted) / 1000;

  const started = performance.now();
  const form = new FormData();
  form.append('password', PASSWORD);
  form.append('file', new Blob([new Uint8Array(file)]), 'users.xlsx');
  const answer = (await (await fetch(`${url}/api${crudPath(userEntity, 'importExcel')}`, { method: 'POST', headers, body: form })).json()) as Envelope<ImportJob>;
  if (!answer.success) throw new Error(`import refused: ${answer.message}`);
  let job = answer.result;
  while (job.state === ImportJobState.running) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    job = (await call<ImportJob>('GET', `${importJobPath(userEntity, 'status')}?jobId=${job.jobId}`)).result;
  }
  const seconds = (performance.now() - started) / 1000;
  const ratio = baselineSeconds / seconds;
  const pass = seconds <= TARGET_SECONDS && job.state === ImportJobState.done && job.added === ROWS;
  if (job.added !== ROWS) console.log(`import-10k added ${job.added} of ${ROWS}; first refusal: ${JSON.stringify(job.rows.find((r) => !r.success))}`);
  report('import-10k', `${seconds.toFixed(1)}s`, `${baselineSeconds.toFixed(2)}s`, ratio, `<=${TARGET_SECONDS}s`, pass);
} finally {
  await bench.close();
}
finish();
