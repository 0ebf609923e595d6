import { describe, expect, it } from 'vitest';
import { checkRuleSetSchema, compileCheckPattern, estimatePatternSize, globalCheckRuleSchema, runCheckRules } from './check-rule.ts';

const set = (pattern: string) => checkRuleSetSchema.safeParse({ globalRules: [{ pattern, message: 'bad', priority: 1 }] });
const messagesOf = (pattern: string) => {
  const parsed = set(pattern);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe('check rule patterns run in linear time', () => {
  it('answers a catastrophic-backtracking pattern at once', () => {
    const rules = { localRules: [], globalRules: [{ pattern: '(a+)+$', message: 'only a', priority: 1 }] };
    const started = performance.now();
    const outcome = runCheckRules(rules, `${'a'.repeat(1000)}!`);
    expect(performance.now() - started).toBeLessThan(100);
    expect(outcome).toEqual({ passed: false, message: 'only a' });
    expect(runCheckRules(rules, 'aaaa')).toEqual({ passed: true });
  });

  it('matches whole values as before', () => {
    const rules = { localRules: [{ digits: 2, pattern: '[A-Z]+', message: 'letters', priority: 1 }], globalRules: [{ pattern: '\\w{4,}', message: 'four', priority: 2 }] };
    expect(runCheckRules(rules, 'AB12')).toEqual({ passed: true });
    expect(runCheckRules(rules, 'A112')).toEqual({ passed: false, message: 'letters' });
    expect(runCheckRules(rules, 'AB')).toEqual({ passed: false, message: 'four' });
    expect(runCheckRules({ localRules: [], globalRules: [{ pattern: 'a|b', message: 'x', priority: 1 }] }, 'ab')).toEqual({ passed: false, message: 'x' });
  });

  it('refuses backreferences and lookaround with their own message, and invalid patterns as before', () => {
    expect(messagesOf('(a)\\1')).toEqual(['validation.regexUnsupported']);
    expect(messagesOf('(?=a)a')).toEqual(['validation.regexUnsupported']);
    expect(messagesOf('(?<=a)b')).toEqual(['validation.regexUnsupported']);
    expect(messagesOf('(a')).toEqual(['validation.regex']);
    expect(globalCheckRuleSchema.safeParse({ pattern: '(?!x)y', message: 'm', priority: 1 }).error?.issues[0]?.message).toBe('validation.regexUnsupported');
    expect(messagesOf('[A-Z]{2}\\d{6}')).toEqual([]);
  });

  it('refuses patterns too large to compile or match quickly, before compiling them', () => {
    const huge = '(?:[\\s\\S]{1,1000})'.repeat(25);
    const started = performance.now();
    expect(compileCheckPattern(huge)).toBe('validation.regexTooComplex');
    expect(performance.now() - started).toBeLessThan(20);
    expect(estimatePatternSize('(?:a{1,100}){1,10}b')).toBeGreaterThanOrEqual(2004);
    expect(messagesOf('(?:a{1,100}){1,10}b')).toEqual(['validation.regexTooComplex']);
    const many = { globalRules: Array.from({ length: 100 }, (_, i) => ({ pattern: `[a-z]{1,400}${i}`, message: 'm', priority: 1 })) };
    expect(checkRuleSetSchema.safeParse(many).error?.issues.map((i) => i.message)).toEqual(['validation.checkRuleTooComplex']);
  });

  it('bounds the work of one check: a value too long for heavy rules is not matched', () => {
    const rules = { localRules: [], globalRules: [{ pattern: '(?:[ab]{1,40}c?){1,10}', message: 'm', priority: 1 }] };
    expect(set(rules.globalRules[0]!.pattern).success).toBe(true);
    const started = performance.now();
    const outcome = runCheckRules(rules, 'a'.repeat(1000));
    expect(performance.now() - started).toBeLessThan(100);
    expect(outcome).toMatchObject({ passed: false, tooComplex: true });
    expect(runCheckRules(rules, 'ab'.repeat(20))).toEqual({ passed: true });
  });
});
