import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import ExcelJS from 'exceljs';
import { api, defaultTenantId, injectAs } from './harness.ts';

/** A role holding exactly these permission codes (plus nothing else), in the default tenant like the test users. */
export async function createRoleWith(app: FastifyInstance, roleCode: string, codes: string[]): Promise<void> {
  const roleId = randomUUID();
  const audit = { create_by: 'test', create_time: null, update_by: null, update_time: null };
  const tenantId = await defaultTenantId(app);
  await app.db.insertInto('sys_role').values({ ...audit, id: roleId, role_name: roleCode, role_code: roleCode, role_type: 1, description: null, tenant_id: tenantId }).execute();
  const permissions = await app.db.selectFrom('sys_permission').select('id').where('perms', 'in', codes).execute();
  for (const p of permissions) await app.db.insertInto('sys_role_permission').values({ ...audit, id: randomUUID(), role_id: roleId, permission_id: p.id }).execute();
}

/** POSTs one file as multipart/form-data, the way the console's upload does (`fields` go before the file). */
export async function postFile(app: FastifyInstance, token: string, path: string, file: Buffer, lang = 'en-US', fields: Record<string, string> = {}) {
  const boundary = `----isps${randomUUID()}`;
  const payload = Buffer.concat([
    ...Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="data.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return injectAs(app, token, { method: 'POST', url: api(app, path), payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, lang } });
}

/**
 * POSTs one file like `postFile`; when the server took it as an import job, waits for the job's end and answers
 * the last status call (the job with its report and final message). A refused upload is answered as it came.
 */
export async function uploadFile(app: FastifyInstance, token: string, path: string, file: Buffer, lang = 'en-US', fields: Record<string, string> = {}) {
  const started = await postFile(app, token, path, file, lang, fields);
  const job = started.envelope.result as { jobId?: unknown; state?: unknown } | null;
  if (!started.envelope.success || typeof job?.jobId !== 'string') return started;
  const statusUrl = `${api(app, path.replace(/\/importExcel$/, '/importJob'))}?jobId=${job.jobId}`;
  for (;;) {
    const status = await injectAs(app, token, { method: 'GET', url: statusUrl, headers: { lang } });
    if ((status.envelope.result as { state?: unknown } | null)?.state !== 'running') return status;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function workbookOf(headers: string[], rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('data');
  sheet.addRow(headers);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function sheetRows(buffer: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}
