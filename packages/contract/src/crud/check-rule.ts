import { z } from 'zod';

/**
 * A check rule (SPEC sections 3 and 5), stored as the JSON text of `ruleJson`:
 * `{ "localRules": [{ "digits": 3, "pattern": "[A-Z]+", "message": "…", "priority": 1 }],
 *    "globalRules": [{ "pattern": "\\w{6,}", "message": "…", "priority": 2 }] }`.
 * Local rules cover consecutive digits (characters) of the value in their listed order: the first rule the first
 * `digits` characters, the next one the following ones. Global rules match the whole value. Every pattern must match
 * completely. Rules run by ascending priority (ties keep local before global, then list order); the first failing
 * rule's message is the answer.
 */
export interface LocalCheckRule {
  digits: number;
  pattern: string;
  message: string;
  priority: number;
}
export type GlobalCheckRule = Omit<LocalCheckRule, 'digits'>;
export interface CheckRuleSet {
  localRules: LocalCheckRule[];
  globalRules: GlobalCheckRule[];
}

function isRegex(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

const positiveInteger = z.number({ error: 'validation.positiveInteger' }).int({ error: 'validation.positiveInteger' }).min(1, { error: 'validation.positiveInteger' }).max(9999, { error: 'validation.positiveInteger' });
const pattern = z.string().min(1).max(500).refine(isRegex, { error: 'validation.regex' });
const message = z.string().trim().min(1).max(200);

export const localCheckRuleSchema = z.object({ digits: positiveInteger, pattern, message, priority: positiveInteger });
export const globalCheckRuleSchema = z.object({ pattern, message, priority: positiveInteger });
export const checkRuleSetSchema = z.object({
  localRules: z.array(localCheckRuleSchema).max(100).default([]),
  globalRules: z.array(globalCheckRuleSchema).max(100).default([]),
});

export type CheckOutcome = { passed: true } | { passed: false; message: string };

/** Runs a rule set over a value (SPEC section 5: local rules per digit in order, global rules over all). */
export function runCheckRules(rules: CheckRuleSet, value: string): CheckOutcome {
  type Step = { priority: number; group: number; order: number; pattern: string; message: string; target: string };
  const steps: Step[] = [];
  let offset = 0;
  rules.localRules.forEach((rule, order) => {
    steps.push({ priority: rule.priority, group: 0, order, pattern: rule.pattern, message: rule.message, target: value.slice(offset, offset + rule.digits) });
    offset += rule.digits;
  });
  rules.globalRules.forEach((rule, order) => steps.push({ priority: rule.priority, group: 1, order, pattern: rule.pattern, message: rule.message, target: value }));
  steps.sort((a, b) => a.priority - b.priority || a.group - b.group || a.order - b.order);
  for (const step of steps) {
    if (!new RegExp(`^(?:${step.pattern})$`).test(step.target)) return { passed: false, message: step.message };
  }
  return { passed: true };
}
