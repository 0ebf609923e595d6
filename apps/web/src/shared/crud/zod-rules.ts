import { issueText, translate, type FieldDeclaration, type Language } from '@isps/contract';
import type { Rule } from 'antd/es/form';
import dayjs from 'dayjs';
import type { z } from 'zod';
import { toWire } from '../time/index.ts';

const isEmpty = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A form value as the API (and so the schema) takes it: numbers from numeric text, 1/0 switches, wire times. */
export function toApiValue(field: FieldDeclaration, value: unknown): unknown {
  // several picked values (link fields) travel joined by commas
  if (Array.isArray(value)) return value.map(String).join(',');
  if (isEmpty(value)) return value;
  if (dayjs.isDayjs(value)) return toWire(value, field.kind === 'date' ? 'date' : 'datetime');
  if (field.kind === 'integer') {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'string' && /^\s*-?\d+(\.0+)?\s*$/.test(value)) return Number(value);
    return value;
  }
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') return String(value);
  return value;
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
  const cross = field.crossCheck;
  if (cross) {
    rules.push(({ getFieldValue }) => ({
      validator: async (_rule, value: unknown) => {
        if (isEmpty(value)) return;
        const problem = cross.problem(String(toApiValue(field, value)).trim().toUpperCase(), getFieldValue(cross.field));
        if (problem) throw new Error(translate(lang, problem, { field: label }));
      },
    }));
  }
  return rules;
}
