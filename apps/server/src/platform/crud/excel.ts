import { LANGUAGES, entityLabel, formFieldsOf, type DictOption, type EntityDeclaration, type Language } from '@isps/contract';
import ExcelJS from 'exceljs';
import { refuse } from '../envelope.ts';

const MAX_IMPORT_ROWS = 5000;

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
function optionsOf(entity: EntityDeclaration, name: string) {
  const widget = entity.fields[name]?.widget;
  return widget?.kind === 'options' ? widget.options : undefined;
}

/** An xlsx of the rows with headers in the caller's language; dictionary fields show their text. */
export async function exportWorkbook(entity: EntityDeclaration, rows: Record<string, unknown>[], lang: Language): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(entityLabel(lang, entity.title).slice(0, 31));
  const fields = sheetFields(entity);
  sheet.columns = fields.map((name) => ({ header: entityLabel(lang, labelKey(entity, name)), key: name, width: 20 }));
  for (const row of rows) {
    const out: Record<string, unknown> = {};
    for (const name of fields) {
      // dictionary fields and links show their texts (role and group names), which the import reads back
      let value = entity.fields[name]?.dict || entity.fields[name]?.link ? row[`${name}_dictText`] : row[name];
      // a fixed choice shows its text in the caller's language, like a dictionary field
      const option = optionsOf(entity, name)?.find((o) => o.value === String(value));
      if (option) value = entityLabel(lang, option.label);
      out[name] = value === null || value === undefined ? '' : value;
    }
    sheet.addRow(out);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function cellText(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    return undefined;
  }
  return value;
}

/**
 * Data rows of an uploaded workbook as field values, keyed by header (a label in any of the three languages, or
 * the field name). Dictionary texts are turned back into values.
 */
export async function readWorkbook(
  entity: EntityDeclaration,
  buffer: Buffer,
  dictionaries: Record<string, DictOption[]>,
): Promise<Array<{ row: number; values: Record<string, unknown> }>> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    refuse('crud.importBadFile');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) refuse('crud.importBadFile');
  const byHeader = new Map<string, string>();
  for (const name of Object.keys(entity.fields)) {
    if (entity.fields[name]?.readOnly || entity.fields[name]?.writeOnly) continue;
    byHeader.set(name.toLowerCase(), name);
    for (const lang of LANGUAGES) byHeader.set(entityLabel(lang, labelKey(entity, name)).toLowerCase(), name);
  }
  const columns = new Map<number, string>();
  sheet.getRow(1).eachCell((cell, col) => {
    const name = byHeader.get(String(cellText(cell.value) ?? '').trim().toLowerCase());
    if (name) columns.set(col, name);
  });
  if (columns.size === 0) refuse('crud.importUnknownColumns');
  if (sheet.rowCount - 1 > MAX_IMPORT_ROWS) refuse('crud.importTooManyRows', { max: MAX_IMPORT_ROWS });
  const rows: Array<{ row: number; values: Record<string, unknown> }> = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    const values: Record<string, unknown> = {};
    let any = false;
    for (const [col, name] of columns) {
      let value = cellText(row.getCell(col).value);
      if (typeof value === 'string') value = value.trim();
      if (value === undefined || value === '') continue;
      const dict = entity.fields[name]?.dict;
      if (dict) value = dictionaries[dict]?.find((o) => o.text === String(value) || o.value === String(value))?.value ?? value;
      const options = optionsOf(entity, name);
      if (options) value = options.find((o) => o.value === String(value) || LANGUAGES.some((lang) => entityLabel(lang, o.label) === String(value)))?.value ?? value;
      values[name] = value;
      any = true;
    }
    if (any) rows.push({ row: number, values });
  });
  return rows;
}
