import { LANGUAGES, entityLabel, formFieldsOf, translate, type DetailDeclaration, type DictOption, type EntityDeclaration, type FieldDeclaration, type Language } from '@isps/contract';
import type ExcelJS from 'exceljs';
import type { FastifyBaseLogger } from 'fastify';
import { PassThrough, Readable } from 'node:stream';
import { createInflateRaw, deflateRawSync } from 'node:zlib';
import { AppError, refuse } from '../envelope.ts';

export const MAX_IMPORT_ROWS = 10_000;
/** what all parts of an imported workbook may unpack to: ample for MAX_IMPORT_ROWS rows, nothing like a zip bomb */
export const MAX_IMPORT_INFLATED_BYTES = 32 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 1000;

/** exceljs is large: it loads at the first export or import, not at start. */
async function excel(): Promise<typeof ExcelJS> {
  return (await import('exceljs')).default;
}

/** Columns of a spreadsheet: the list columns, then the other form fields (so an export imports back whole). */
function sheetFields(entity: EntityDeclaration): string[] {
  const fields = [...entity.columns];
  for (const name of formFieldsOf(entity)) if (!fields.includes(name) && !entity.fields[name]?.writeOnly) fields.push(name);
  return fields;
}

function labelKey(entity: EntityDeclaration, name: string): string {
  return entity.fields[name]?.label ?? `crud.field.${name}`;
}

/** The fixed choices of an options field, or none. */
function optionsOf(entity: Pick<EntityDeclaration, 'fields'>, name: string) {
  const widget = entity.fields[name]?.widget;
  return widget?.kind === 'options' ? widget.options : undefined;
}

/** A column of a spreadsheet: a field of the row, or of a detail's lines (`detail`). */
interface SheetColumn {
  key: string;
  name: string;
  field?: FieldDeclaration;
  detail?: DetailDeclaration;
}

/** The header of a detail's column: the detail's title, then the field's label ('Customers · Phone'). */
function detailHeader(lang: Language, detail: DetailDeclaration, name: string): string {
  return `${entityLabel(lang, detail.title)} · ${entityLabel(lang, detail.fields[name]?.label ?? name)}`;
}

/** The row's columns (`sheetFields`), then each detail's fields. */
function sheetColumns(entity: EntityDeclaration): SheetColumn[] {
  return [
    ...sheetFields(entity).map((name) => ({ key: name, name, field: entity.fields[name] })),
    ...(entity.details ?? []).flatMap((detail) => detail.columns.map((name) => ({ key: `${detail.name}.${name}`, name, field: detail.fields[name], detail }))),
  ];
}

function headerOf(entity: EntityDeclaration, column: SheetColumn, lang: Language): string {
  return column.detail ? detailHeader(lang, column.detail, column.name) : entityLabel(lang, labelKey(entity, column.name));
}

/** An answered value as a spreadsheet shows it: dictionary fields and links by their texts, fixed choices by their label. */
function shownCell(field: FieldDeclaration | undefined, name: string, row: Record<string, unknown>, lang: Language): unknown {
  // dictionary fields and links show their texts (role and group names), which the import reads back
  let value = field?.dict || field?.link ? row[`${name}_dictText`] : row[name];
  // a fixed choice shows its text in the caller's language, like a dictionary field
  const option = field?.widget.kind === 'options' ? field.widget.options.find((o) => o.value === String(value)) : undefined;
  if (option) value = entityLabel(lang, option.label);
  return value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : value;
}

/**
 * The spreadsheet rows of one row: its cells and its first line of each detail, then one spreadsheet row per further
 * line (the row's own cells left empty, so an import knows the lines that follow are still that row's).
 */
function spreadsheetRows(entity: EntityDeclaration, row: Record<string, unknown>, cell: (column: SheetColumn, row: Record<string, unknown>) => unknown): Array<Record<string, unknown>> {
  const columns = sheetColumns(entity);
  const first: Record<string, unknown> = {};
  for (const column of columns) if (!column.detail) first[column.key] = cell(column, row);
  const out = [first];
  for (const detail of entity.details ?? []) {
    const lines = Array.isArray(row[detail.name]) ? (row[detail.name] as Array<Record<string, unknown>>) : [];
    lines.forEach((line, index) => {
      const target = (out[index] ??= {});
      for (const column of columns) if (column.detail === detail) target[column.key] = cell(column, line);
    });
  }
  return out;
}

/**
 * Writes an xlsx of the rows to `out` as a stream, a page at a time, with headers in the caller's language;
 * dictionary fields show their text. Other requests are served between pages. Answers the number of rows.
 */
export async function streamWorkbook(entity: EntityDeclaration, pages: AsyncIterable<Record<string, unknown>[]>, lang: Language, out: PassThrough): Promise<number> {
  const workbook = new (await excel()).stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(entityLabel(lang, entity.title).slice(0, 31));
  sheet.columns = sheetColumns(entity).map((column) => ({ header: headerOf(entity, column, lang), key: column.key, width: 20 }));
  let count = 0;
  for await (const rows of pages) {
    // a slow reader holds the next page back, so what waits for it stays about a page; a gone one ends the export
    if (out.writableNeedDrain && !out.destroyed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          out.off('drain', done);
          out.off('close', done);
          resolve();
        };
        out.on('drain', done);
        out.on('close', done);
      });
    }
    if (out.destroyed) return count;
    for (const row of rows) {
      for (const values of spreadsheetRows(entity, row, (column, source) => shownCell(column.field, column.name, source, lang))) sheet.addRow(values).commit();
      count++;
    }
    // between pages the event loop answers other requests
    await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.commit();
  await workbook.commit();
  return count;
}

/**
 * The refused rows of an import as an xlsx: the row's number in the uploaded file, the columns an export has (so the
 * corrected file imports again) with the values as they were read, and why each row was refused, in the reader's language.
 */
export async function refusedRowsWorkbook(entity: EntityDeclaration, rows: Array<{ row: number; cells: Record<string, unknown>; message: string }>, lang: Language): Promise<Buffer> {
  const workbook = new (await excel()).Workbook();
  const sheet = workbook.addWorksheet(entityLabel(lang, entity.title).slice(0, 31));
  sheet.columns = [
    { header: translate(lang, 'crud.importRowNumber'), key: '__row', width: 8 },
    ...sheetColumns(entity).map((column) => ({ header: headerOf(entity, column, lang), key: column.key, width: 20 })),
    { header: translate(lang, 'crud.importRefusalReason'), key: '__reason', width: 60 },
  ];
  const asRead = (column: SheetColumn, source: Record<string, unknown>) => {
    const value = source[column.name];
    return value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : value;
  };
  for (const { row, cells, message } of rows) {
    const [first, ...more] = spreadsheetRows(entity, cells, asRead);
    sheet.addRow({ ...first, __row: row, __reason: message });
    for (const values of more) sheet.addRow(values);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A small sheet of a screen that is not an entity (a report's table): the given headers, then the rows' cells in order. */
export async function tableWorkbook(title: string, headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null>>): Promise<Buffer> {
  const workbook = new (await excel()).Workbook();
  const sheet = workbook.addWorksheet(title.replace(/[*?:\\/[\]]/g, ' ').slice(0, 31) || 'Sheet1');
  sheet.columns = headers.map((header) => ({ header, width: 22 }));
  for (const row of rows) sheet.addRow(row.map((cell) => cell ?? ''));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function cellText(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return undefined;
  // a date cell holds a wall-clock time (spreadsheets know no zones): read it as one, in TIME_ZONE like any wire time
  if (value instanceof Date) return value.toISOString().slice(0, 19).replace('T', ' ');
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    return undefined;
  }
  return value;
}

/** Where the cause of a refused file goes: the request's log, which carries its id. */
export type ImportLog = Pick<FastifyBaseLogger, 'warn'>;

/** Refuses a file nobody could read, with its cause in the log (never in the answer, never the file's content). */
function badFile(log: ImportLog, cause: unknown): never {
  log.warn({ err: cause instanceof Error ? cause : new Error(String(cause)) }, 'import file not readable');
  refuse('crud.importBadFile');
}

interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  headerOffset: number;
}

/** The entries of a zip's central directory; anything that is not a plain (non-zip64) zip is not a workbook. */
function zipEntries(buffer: Buffer, log: ImportLog): ZipEntry[] {
  const bad = (cause: string) => badFile(log, `not a zip workbook: ${cause}`);
  let end = -1;
  for (let i = buffer.length - 22; i >= Math.max(0, buffer.length - 22 - 0xffff); i--) {
    if (buffer.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) bad('no end of central directory');
  const count = buffer.readUInt16LE(end + 10);
  if (count > MAX_ZIP_ENTRIES) bad(`${count} entries`);
  const entries: ZipEntry[] = [];
  let at = buffer.readUInt32LE(end + 16);
  for (let n = 0; n < count; n++) {
    if (at + 46 > buffer.length || buffer.readUInt32LE(at) !== 0x02014b50) bad(`central directory entry ${n} missing`);
    const nameLength = buffer.readUInt16LE(at + 28);
    const entry = {
      method: buffer.readUInt16LE(at + 10),
      crc: buffer.readUInt32LE(at + 16),
      compressedSize: buffer.readUInt32LE(at + 20),
      size: buffer.readUInt32LE(at + 24),
      headerOffset: buffer.readUInt32LE(at + 42),
      name: buffer.toString('utf8', at + 46, at + 46 + nameLength),
    };
    if (entry.compressedSize === 0xffffffff || entry.size === 0xffffffff || entry.headerOffset + 30 > buffer.length) bad(`entry ${n} is zip64 or outside the file`);
    entries.push(entry);
    at += 46 + nameLength + buffer.readUInt16LE(at + 30) + buffer.readUInt16LE(at + 32);
  }
  return entries;
}

/** The compressed bytes of an entry, after its local header. */
function entryData(buffer: Buffer, entry: ZipEntry, log: ImportLog): Buffer {
  const start = entry.headerOffset + 30 + buffer.readUInt16LE(entry.headerOffset + 26) + buffer.readUInt16LE(entry.headerOffset + 28);
  if (buffer.readUInt32LE(entry.headerOffset) !== 0x04034b50 || start + entry.compressedSize > buffer.length) badFile(log, `not a zip workbook: local header of ${entry.name}`);
  return buffer.subarray(start, start + entry.compressedSize);
}

/** The parts the streaming reader reads, in the order it needs them; every other part is left out. */
const READER_PARTS = ['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/styles.xml'];
const WORKSHEET_PART = /^xl\/worksheets\/sheet\d+\.xml$/;
/** larger than every buffer between the unzip parser and the reader (a few times 16 kB), a few hundred bytes deflated */
const HOLD_BYTES = 256 * 1024;
let holdPart: Buffer | undefined;

/** A zip part's local header and data, its sizes in the header (no data descriptor to look for). */
function localRecord(name: string, method: number, crc: number, data: Buffer, size: number): Buffer[] {
  const header = Buffer.alloc(30);
  const nameBytes = Buffer.from(name, 'utf8');
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(method, 8);
  header.writeUInt32LE(crc, 14);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(size, 22);
  header.writeUInt16LE(nameBytes.length, 26);
  return [header, nameBytes, data];
}

/**
 * The workbook as exceljs's streaming reader can read it whatever the timing (issue #33). Its unzip parser (unzipper
 * 0.10) ends its stream of parts once it has parsed the archive's end, dropping the parts the reader has not taken
 * yet; and a worksheet found before the shared strings (where exceljs and Excel write it) goes to a temporary file
 * first, slow enough for the parser to get there. So a slow moment lost `xl/workbook.xml` and refused a good file.
 * Here the sheets come after the parts they need (read in place, no temporary file), followed by a part too large
 * for the buffers, which holds the parser back until the reader has taken every part before it.
 */
function readerInput(buffer: Buffer, entries: ZipEntry[], log: ImportLog): Readable {
  const rank = (name: string) => (READER_PARTS.includes(name) ? READER_PARTS.indexOf(name) : WORKSHEET_PART.test(name) ? READER_PARTS.length : -1);
  const parts = entries.filter((e) => rank(e.name) >= 0).sort((a, b) => rank(a.name) - rank(b.name));
  holdPart ??= deflateRawSync(Buffer.alloc(HOLD_BYTES));
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const records = parts.flatMap((e) => localRecord(e.name, e.method, e.crc, entryData(buffer, e, log), e.size));
  return Readable.from([...records, ...localRecord('isps-hold', 8, 0, holdPart, HOLD_BYTES), end]);
}

const ROW_TAG = /<(?:[A-Za-z_][\w.-]*:)?row[\s>/]/g;

/** Parsed rows between two turns of the event loop for other requests. */
const ROWS_PER_TURN = 200;

/**
 * Refuses a workbook before it is parsed when its parts declare or actually unpack to more than
 * MAX_IMPORT_INFLATED_BYTES, or a worksheet holds more than MAX_IMPORT_ROWS rows: each part is inflated as a stream
 * and dropped, and the inflation stops the moment a bound is passed, so a zip bomb costs a few milliseconds.
 * Answers the number of row tags of the first worksheet (header included).
 */
async function checkWorkbookBounds(buffer: Buffer, entries: ZipEntry[], log: ImportLog): Promise<number> {
  const rowTags = new Map<string, number>();
  const tooLarge = () => new AppError('refused', 'crud.importTooLarge', { max: MAX_IMPORT_INFLATED_BYTES / 1024 / 1024 });
  const tooManyRows = () => new AppError('refused', 'crud.importTooManyRows', { max: MAX_IMPORT_ROWS });
  if (entries.reduce((sum, e) => sum + e.size, 0) > MAX_IMPORT_INFLATED_BYTES) throw tooLarge();
  let left = MAX_IMPORT_INFLATED_BYTES;
  for (const entry of entries) {
    const data = entryData(buffer, entry, log);
    const sheet = /^xl\/worksheets\/[^/]+\.xml$/i.test(entry.name);
    let rows = 0;
    let tail = '';
    // the declared size may lie: the bound holds on what actually comes out
    const take = (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) throw tooLarge();
      if (!sheet) return;
      const text = tail + chunk.toString('latin1');
      rows += text.match(ROW_TAG)?.length ?? 0;
      if (rows > MAX_IMPORT_ROWS + 1) throw tooManyRows();
      // a tag cut between two chunks is counted once, in the next one
      const cut = text.lastIndexOf('<');
      tail = cut >= 0 && text.length - cut < 64 && !/[\s>/]/.test(text.slice(cut + 1)) ? text.slice(cut) : '';
    };
    if (entry.method === 0) {
      // a stored part is scanned in slices too, with turns for other requests
      for (let at = 0; at < data.length; at += 64 * 1024) {
        take(data.subarray(at, at + 64 * 1024));
        await new Promise((resolve) => setImmediate(resolve));
      }
    } else if (entry.method === 8) {
      await new Promise<void>((resolve, reject) => {
        const inflate = createInflateRaw();
        let failed = false;
        inflate.on('data', (chunk: Buffer) => {
          if (failed) return;
          try {
            take(chunk);
          } catch (error) {
            failed = true;
            inflate.destroy();
            reject(error);
          }
        });
        inflate.on('error', (error) => {
          if (!failed) reject(error);
          failed = true;
        });
        inflate.on('end', () => resolve());
        inflate.end(data);
      }).catch((error: unknown) => (error instanceof AppError ? Promise.reject(error) : badFile(log, error)));
    } else badFile(log, `part ${entry.name} uses compression method ${entry.method}`);
    if (sheet) rowTags.set(entry.name.toLowerCase(), rows);
  }
  return rowTags.get('xl/worksheets/sheet1.xml') ?? Math.max(0, ...rowTags.values());
}

export interface SheetRow {
  /** the row's number as the spreadsheet shows it */
  row: number;
  values: Record<string, unknown>;
}

/**
 * An uploaded workbook, its bounds and header checked: `rowsAtMost` data rows (empty ones are skipped, so `rows` may
 * yield fewer) read as a stream from the first worksheet while `rows` is iterated, with turns for other requests.
 */
export interface OpenedWorkbook {
  rowsAtMost: number;
  rows: AsyncGenerator<SheetRow>;
}

/**
 * Data rows of an uploaded workbook as field values, keyed by header (a label in any of the three languages, or
 * the field name). Dictionary texts are turned back into values. The first worksheet is read as a stream, after
 * its bounds are checked, and reading stops at the row limit. Answers once the header and the first data row are
 * read, so a file nobody could import is refused before any row is stored.
 */
export async function openWorkbook(entity: EntityDeclaration, buffer: Buffer, dictionaries: Record<string, DictOption[]>, log: ImportLog): Promise<OpenedWorkbook> {
  const entries = zipEntries(buffer, log);
  const rowsAtMost = Math.max(0, (await checkWorkbookBounds(buffer, entries, log)) - 1);
  const rows = sheetRows(entity, readerInput(buffer, entries, log), dictionaries, log);
  const first = await rows.next();
  async function* all(): AsyncGenerator<SheetRow> {
    if (first.done) return;
    yield first.value;
    yield* rows;
  }
  return { rowsAtMost, rows: all() };
}

/** Every data row of an uploaded workbook at once (small files, tests). */
export async function readWorkbook(entity: EntityDeclaration, buffer: Buffer, dictionaries: Record<string, DictOption[]>, log: ImportLog): Promise<SheetRow[]> {
  const rows: SheetRow[] = [];
  for await (const row of (await openWorkbook(entity, buffer, dictionaries, log)).rows) rows.push(row);
  return rows;
}

/** A cell read into its field's value: dictionary texts and fixed choices' labels back to their values. */
function valueOfCell(fields: EntityDeclaration['fields'], name: string, value: unknown, dictionaries: Record<string, DictOption[]>): unknown {
  const dict = fields[name]?.dict;
  if (dict) return dictionaries[dict]?.find((o) => o.text === String(value) || o.value === String(value))?.value ?? value;
  const options = optionsOf({ fields }, name);
  if (options) return options.find((o) => o.value === String(value) || LANGUAGES.some((lang) => entityLabel(lang, o.label) === String(value)))?.value ?? value;
  return value;
}

async function* sheetRows(entity: EntityDeclaration, input: Readable, dictionaries: Record<string, DictOption[]>, log: ImportLog): AsyncGenerator<SheetRow> {
  // a header names a field of the row, or (titled by its detail) a field of a detail's lines
  const byHeader = new Map<string, { name: string; detail?: DetailDeclaration }>();
  for (const name of Object.keys(entity.fields)) {
    if (entity.fields[name]?.readOnly || entity.fields[name]?.writeOnly) continue;
    byHeader.set(name.toLowerCase(), { name });
    for (const lang of LANGUAGES) byHeader.set(entityLabel(lang, labelKey(entity, name)).toLowerCase(), { name });
  }
  for (const detail of entity.details ?? []) {
    for (const name of detail.columns) {
      byHeader.set(`${detail.name}.${name}`.toLowerCase(), { name, detail });
      for (const lang of LANGUAGES) byHeader.set(detailHeader(lang, detail, name).toLowerCase(), { name, detail });
    }
  }
  const details = entity.details ?? [];
  // a row with lines is yielded once the next row starts (a spreadsheet row with cells of its own) or the sheet ends
  let held: SheetRow | null = null;
  const reader = new (await excel()).stream.xlsx.WorkbookReader(input, { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
  let sheetSeen = false;
  try {
    for await (const worksheet of reader) {
      sheetSeen = true;
      const columns = new Map<number, { name: string; detail?: DetailDeclaration }>();
      let count = 0;
      for await (const row of worksheet) {
        if (row.number === 1) {
          row.eachCell((cell, col) => {
            const name = byHeader.get(String(cellText(cell.value) ?? '').trim().toLowerCase());
            if (name) columns.set(col, name);
          });
          if (columns.size === 0) refuse('crud.importUnknownColumns');
          continue;
        }
        if (columns.size === 0) refuse('crud.importUnknownColumns');
        if (++count > MAX_IMPORT_ROWS) refuse('crud.importTooManyRows', { max: MAX_IMPORT_ROWS });
        // the parse is pulled row by row: pausing here pauses it, and other requests get their turn
        if (count % ROWS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
        const values: Record<string, unknown> = {};
        const lines = new Map<DetailDeclaration, Record<string, unknown>>();
        let any = false;
        for (const [col, { name, detail }] of columns) {
          let value = cellText(row.getCell(col).value);
          if (typeof value === 'string') value = value.trim();
          if (value === undefined || value === '') continue;
          value = valueOfCell(detail ? detail.fields : entity.fields, name, value, dictionaries);
          if (detail) lines.set(detail, { ...lines.get(detail), [name]: value });
          else {
            values[name] = value;
            any = true;
          }
        }
        if (details.length === 0) {
          if (any) yield { row: row.number, values };
          continue;
        }
        if (!any && lines.size === 0) continue;
        // a spreadsheet row of lines only continues the row above it
        if (any || !held) {
          if (held) yield held;
          held = { row: row.number, values: { ...values, ...Object.fromEntries(details.map((d) => [d.name, []])) } };
        }
        for (const [detail, line] of lines) (held.values[detail.name] as Array<Record<string, unknown>>).push(line);
      }
      if (held) yield held;
      if (columns.size === 0) refuse('crud.importUnknownColumns');
      // only the first worksheet is imported
      break;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    badFile(log, error);
  }
  if (!sheetSeen) badFile(log, 'no worksheet');
}
