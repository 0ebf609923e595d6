import { describe, expect, it } from 'vitest';
import { checkRuleSetSchema, runCheckRules } from './check-rule.ts';
import { PHONE_PATTERN, emailSchema, phoneSchema } from './fields.ts';
import { entityLabel } from './labels.ts';
import { RULE_KEYS, RULE_LIBRARY, libraryPattern, type RuleKey } from './rule-library.ts';

const samples: Record<RuleKey, { pass: string[]; fail: string[] }> = {
  digits6to16: { pass: ['123456', '1234567890123456'], fail: ['12345', '12345678901234567', '12345a'] },
  chars6to16: { pass: ['abc 12', 'ζζζζζζ'], fail: ['abc', 'x'.repeat(17)] },
  chars6to18: { pass: ['abcdef', 'x'.repeat(18)], fail: ['abcde', 'x'.repeat(19)] },
  url: { pass: ['https://example.com', 'http://a.b.cn:8080/p?q=1#x', 'ftp://files.example.org/x'], fail: ['example.com', 'https://', 'javascript:alert(1)'] },
  email: { pass: ['dan@example.com', 'a.b+c@mail.example.co'], fail: ['dan@', 'dan@example', '@example.com', 'd an@example.com'] },
  phone: { pass: ['13800000007', '+81 3-1234-5678'], fail: ['12', 'phone'] },
  postcode: { pass: ['210000'], fail: ['21000', '2100000', '21000a'] },
  letter: { pass: ['Abc'], fail: ['Ab1', ''] },
  number: { pass: ['12', '-1.5', '+0.25', '.5'], fail: ['1.2.3', 'abc', ''] },
  integer: { pass: ['42', '-7'], fail: ['4.2', 'x'] },
  nonEmpty: { pass: ['x', ' a '], fail: ['', '   '] },
  money: { pass: ['0', '12', '12.5', '12.50'], fail: ['012', '12.345', '-1'] },
};

describe('the rule library', () => {
  it.each(RULE_KEYS)('%s accepts and refuses as its name says', (key) => {
    for (const value of samples[key].pass) expect(libraryPattern(key).test(value), `${key} ${value}`).toBe(true);
    for (const value of samples[key].fail) expect(libraryPattern(key).test(value), `${key} ${value}`).toBe(false);
  });

  it('runs every rule as a check rule (RE2), with the same verdicts', () => {
    const set = { localRules: [], globalRules: RULE_KEYS.map((key, i) => ({ pattern: RULE_LIBRARY[key].pattern, message: key, priority: i + 1 })) };
    expect(checkRuleSetSchema.safeParse(set).success).toBe(true);
    for (const key of RULE_KEYS) {
      const one = checkRuleSetSchema.parse({ localRules: [], globalRules: [{ pattern: RULE_LIBRARY[key].pattern, message: key, priority: 1 }] });
      for (const value of samples[key].pass) expect(runCheckRules(one, value).passed, `${key} ${value}`).toBe(true);
      for (const value of samples[key].fail) expect(runCheckRules(one, value).passed, `${key} ${value}`).toBe(false);
    }
  });

  it('is what declarations check phones and e-mail addresses with', () => {
    expect(PHONE_PATTERN).toBe(libraryPattern('phone'));
    expect(phoneSchema.safeParse('12').success).toBe(false);
    for (const value of samples.email.pass) expect(emailSchema.safeParse(value).success).toBe(true);
    for (const value of samples.email.fail) expect(emailSchema.safeParse(value).success).toBe(false);
  });

  it('names every rule in the three languages', () => {
    for (const lang of ['en-US', 'zh-CN', 'ja-JP'] as const) for (const key of RULE_KEYS) expect(entityLabel(lang, RULE_LIBRARY[key].label)).not.toBe(RULE_LIBRARY[key].label);
    expect(entityLabel('zh-CN', RULE_LIBRARY.digits6to16.label)).toBe('6到16位数字');
  });
});
