import { dataSourceEntity, fillRuleEntity, positionEntity, translate, vendorEntity, type FieldDeclaration } from '@isps/contract';
import type { RuleObject } from 'antd/es/form';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { setSiteTimeZone } from '../time/index.ts';
import { fieldRules, toApiValue } from './zod-rules.ts';

/** Runs the rules like antd does and returns the first message, or null when the value passes. */
async function check(field: FieldDeclaration, value: unknown, mode: 'add' | 'edit' = 'add', lang: 'en-US' | 'zh-CN' = 'en-US'): Promise<string | null> {
  for (const rule of fieldRules(field, { mode, label: 'Label', lang })) {
    const validator = (rule as RuleObject).validator;
    try {
      await validator?.(rule as RuleObject, value, () => undefined);
    } catch (error) {
      return (error as Error).message;
    }
  }
  return null;
}

describe('zod schema → antd form rules', () => {
  const code = positionEntity.fields.code!;
  const offset = vendorEntity.fields.gatherOffset!;

  it('demands required fields on add with the server wording, in the user language', async () => {
    expect(await check(code, '')).toBe('Label is required');
    expect(await check(code, '   ')).toBe('Label is required');
    expect(await check(code, '', 'add', 'zh-CN')).toMatch(/Label/);
  });

  it('passes an empty optional field without running its schema', async () => {
    expect(await check(offset, undefined)).toBeNull();
    expect(await check(dataSourceEntity.fields.remark!, '')).toBeNull();
  });

  it('reports the schema message keys of the contract (no Chinese in codes)', async () => {
    expect(await check(code, '职务')).toBe('Label cannot contain Chinese characters');
    expect(await check(code, 'P-01')).toBeNull();
  });

  it('maps length and range issues to the server messages', async () => {
    expect(await check(code, 'x'.repeat(65))).toBe('Label must have at most 64 characters');
    expect(await check(offset, 90_000)).toBe(translate('en-US', 'validation.tooBig', { field: 'Label', max: '86400' }));
    expect(await check(offset, 1.5)).toBe('Label must be an integer');
    expect(await check(offset, 12)).toBeNull();
  });

  it('checks JSON text and custom rules like the server', async () => {
    const params = fillRuleEntity.fields.ruleParams!;
    expect(await check(params, '{bad')).toBe('Label: Illegal JSON string');
    expect(await check(params, '[1]')).toBe('Label must be a JSON object, not an array');
    expect(await check(params, '{"digits":4}')).toBeNull();
    expect(await check(dataSourceEntity.fields.code!, '1abc')).toMatch(/must start with a letter/);
  });

  it('keeps a write-only field optional on edit, so an empty password keeps the stored one', async () => {
    const password: FieldDeclaration = { ...dataSourceEntity.fields.dbPassword!, required: true };
    expect(await check(password, '', 'add')).toBe('Label is required');
    expect(await check(password, '', 'edit')).toBeNull();
  });

  it('turns form values into API values the schemas accept', () => {
    expect(toApiValue(offset, '42')).toBe(42);
    expect(toApiValue(offset, true)).toBe(1);
    expect(toApiValue(code, 7)).toBe('7');
    // a picked time travels as the wire's `YYYY-MM-DD HH:mm:ss` in the site zone
    setSiteTimeZone('Asia/Tokyo');
    expect(toApiValue(code, dayjs('2024-01-31T08:00:00Z'))).toBe('2024-01-31 17:00:00');
    setSiteTimeZone(null);
  });
});
