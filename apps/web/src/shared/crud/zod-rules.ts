import { serverMessages, translate, type FieldDeclaration, type Language, type MessageKey } from '@isps/contract';
import type { Rule } from 'antd/es/form';
import dayjs from 'dayjs';
import type { z } from 'zod';

const isEmpty = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A form value as the API (and so the schema) takes it: numbers from numeric text, 1/0 switches, ISO times. */
export function toApiValue(field: FieldDeclaration, value: unknown): unknown {
  if (isEmpty(value)) return value;
  if (dayjs.isDayjs(value)) return value.toISOString();
  if (field.kind === 'integer') {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'string' && /^\s*-?\d+(\.0+)?\s*$/.test(value)) return Number(value);
    return value;
  }
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') return String(value);
  return value;
}

function isMessageKey(text: string): text is MessageKey {
  return text in serverMessages['en-US'];
}

/** The message of a schema issue in the user's language, worded as the server words it for the same field. */
export function issueText(lang: Language, label: string, issue: z.core.$ZodIssue, value: unknown): string {
  if (isMessageKey(issue.message)) {
    return translate(lang, issue.message, { field: label, value: String(value), index: String(Number(issue.path[1] ?? 0) + 1), problem: '' });
  }
  const detail = issue as z.core.$ZodIssue & { origin?: string; minimum?: number | bigint; maximum?: number | bigint; expected?: string };
  switch (issue.code) {
    case 'too_small':
      if (detail.origin === 'string' && Number(detail.minimum) <= 1) return translate(lang, 'validation.required', { field: label });
      return translate(lang, detail.origin === 'string' ? 'validation.tooShort' : 'validation.tooSmall', { field: label, min: String(detail.minimum) });
    case 'too_big':
      return translate(lang, detail.origin === 'string' ? 'validation.tooLong' : 'validation.tooBig', { field: label, max: String(detail.maximum) });
    case 'invalid_type':
      return translate(lang, detail.expected === 'number' || detail.expected === 'int' ? 'validation.integer' : 'validation.invalid', { field: label });
    case 'invalid_format':
      return translate(lang, 'validation.format', { field: label });
    case 'invalid_value':
      return translate(lang, 'validation.unknownOption', { field: label, value: String(value) });
    default:
      return translate(lang, 'validation.invalid', { field: label });
  }
}

/** Whether the form demands a value: required fields on add; on edit they cannot be emptied (write-only excepted). */
export function isRequired(field: FieldDeclaration, mode: 'add' | 'edit'): boolean {
  return Boolean(field.required) && (mode === 'add' || !field.writeOnly);
}

/**
 * antd form rules from a field declaration: the required rule, then the very zod schema the server validates with.
 * Like the server, the schema only judges a present, non-empty value.
 */
export function fieldRules(field: FieldDeclaration, options: { mode: 'add' | 'edit'; label: string; lang: Language }): Rule[] {
  const { mode, label, lang } = options;
  const rules: Rule[] = [];
  if (isRequired(field, mode)) {
    rules.push({
      validator: async (_rule, value: unknown) => {
        if (isEmpty(value)) throw new Error(translate(lang, 'validation.required', { field: label }));
      },
    });
  }
  rules.push({
    validator: async (_rule, value: unknown) => {
      if (isEmpty(value)) return;
      const apiValue = toApiValue(field, value);
      const parsed = field.schema.safeParse(apiValue);
      if (!parsed.success) throw new Error(issueText(lang, label, parsed.error.issues[0] as z.core.$ZodIssue, apiValue));
    },
  });
  return rules;
}
