import { RE2JS } from 're2js';
import * as z from 'zod';

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

/**
 * Patterns run on RE2 (linear time in the value's length), never on a backtracking engine: a pattern such as
 * `(a+)+$` cannot stall the server or the browser. Backreferences and lookaround are refused.
 */
const MAX_PATTERN_INSTRUCTIONS = 1000;
/** the compiled size of all patterns of one rule set */
const MAX_RULE_SET_INSTRUCTIONS = 5000;
/** compiling takes time too: a pattern whose counted repeats expand past this is refused before it is compiled */
const MAX_PATTERN_ESTIMATE = 2500;
const MAX_RULE_SET_ESTIMATE = 10_000;
/** matching costs about instructions × characters; past this one check would hold the event loop too long */
const MAX_CHECK_WORK = 400_000;

const compiled = new Map<string, RE2JS | string>();

/**
 * An upper estimate of a pattern's compiled size from its text alone (counted repeats multiply what they repeat),
 * so an expensive one is refused before the compiler expands it.
 */
export function estimatePatternSize(pattern: string): number {
  const stack: Array<{ sum: number; alternatives: number; last: number }> = [{ sum: 0, alternatives: 0, last: 0 }];
  let i = 0;
  const top = () => stack[stack.length - 1]!;
  const atom = (size: number) => {
    top().sum += size;
    top().last = size;
  };
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') {
      i += 2;
      // \p{Greek}, \x{41} and the like are one atom
      if (pattern[i] === '{') while (i < pattern.length && pattern[i - 1] !== '}') i++;
      atom(1);
    } else if (c === '[') {
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : pattern.startsWith('[:', i) ? Math.max(2, pattern.indexOf(':]', i) + 2 - i) : 1;
      i++;
      atom(1);
    } else if (c === '(') {
      i++;
      if (pattern[i] === '?') while (i < pattern.length && pattern[i] !== ':' && pattern[i] !== ')') i++;
      if (pattern[i] === ':') i++;
      stack.push({ sum: 0, alternatives: 0, last: 0 });
    } else if (c === ')') {
      i++;
      const group = stack.length > 1 ? stack.pop()! : { sum: 0, alternatives: 0, last: 0 };
      atom(group.sum + group.alternatives + 1);
    } else if (c === '|') {
      i++;
      top().alternatives++;
      top().last = 0;
    } else if (c === '*' || c === '+' || c === '?') {
      i++;
      top().sum += top().last + 1;
    } else if (c === '{' && /^\{(\d+)(,(\d*))?\}/.test(pattern.slice(i, i + 12))) {
      const [text, min, range, max] = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 12))!;
      i += text.length;
      const count = Math.max(Number(min), range ? (max ? Number(max) : Number(min) + 1) : Number(min));
      // an optional copy compiles to two instructions per instruction
      const expanded = top().last * Math.min(count, 100_000) * (range ? 2 : 1);
      top().sum += expanded - top().last;
      top().last = expanded;
    } else {
      i++;
      atom(1);
    }
  }
  while (stack.length > 1) {
    const group = stack.pop()!;
    atom(group.sum + group.alternatives + 1);
  }
  return stack[0]!.sum + stack[0]!.alternatives + 2;
}

/** The compiled pattern, or the message key of why it is refused (cached: rules are checked again and again). */
export function compileCheckPattern(pattern: string): RE2JS | string {
  const known = compiled.get(pattern);
  if (known !== undefined) return known;
  let outcome: RE2JS | string;
  if (estimatePatternSize(pattern) > MAX_PATTERN_ESTIMATE) outcome = 'validation.regexTooComplex';
  else try {
    const re = RE2JS.compile(pattern);
    outcome = re.re2Input.numberOfInstructions() > MAX_PATTERN_INSTRUCTIONS ? 'validation.regexTooComplex' : re;
  } catch {
    let javaScript = true;
    try {
      new RegExp(pattern);
    } catch {
      javaScript = false;
    }
    // valid for a backtracking engine only: backreferences, lookaround and the like
    outcome = javaScript ? 'validation.regexUnsupported' : 'validation.regex';
  }
  if (compiled.size >= 500) compiled.delete(compiled.keys().next().value as string);
  compiled.set(pattern, outcome);
  return outcome;
}

function instructionsOf(pattern: string): number {
  const re = compileCheckPattern(pattern);
  return typeof re === 'string' ? 0 : re.re2Input.numberOfInstructions();
}

function checkPattern(value: string, ctx: z.RefinementCtx) {
  const re = compileCheckPattern(value);
  if (typeof re === 'string') ctx.addIssue({ code: 'custom', message: re });
}

const positiveInteger = z.number({ error: 'validation.positiveInteger' }).int({ error: 'validation.positiveInteger' }).min(1, { error: 'validation.positiveInteger' }).max(9999, { error: 'validation.positiveInteger' });
const patternText = z.string().min(1).max(500);
const pattern = patternText.superRefine(checkPattern);
const message = z.string().trim().min(1).max(200);

export const localCheckRuleSchema = z.object({ digits: positiveInteger, pattern, message, priority: positiveInteger });
export const globalCheckRuleSchema = z.object({ pattern, message, priority: positiveInteger });
/** Patterns are checked over the whole set, within one budget, so a set of many heavy patterns is not compiled at all. */
export const checkRuleSetSchema = z
  .object({
    localRules: z.array(z.object({ ...localCheckRuleSchema.shape, pattern: patternText })).max(100).default([]),
    globalRules: z.array(z.object({ ...globalCheckRuleSchema.shape, pattern: patternText })).max(100).default([]),
  })
  .superRefine((set, ctx) => {
    const all = [...set.localRules.map((rule, i) => ({ rule, path: ['localRules', i, 'pattern'] })), ...set.globalRules.map((rule, i) => ({ rule, path: ['globalRules', i, 'pattern'] }))];
    if (all.reduce((sum, { rule }) => sum + estimatePatternSize(rule.pattern), 0) > MAX_RULE_SET_ESTIMATE) {
      ctx.addIssue({ code: 'custom', message: 'validation.checkRuleTooComplex' });
      return;
    }
    for (const { rule, path } of all) {
      const re = compileCheckPattern(rule.pattern);
      if (typeof re === 'string') ctx.addIssue({ code: 'custom', message: re, path });
    }
    const total = all.reduce((sum, { rule }) => sum + instructionsOf(rule.pattern), 0);
    if (total > MAX_RULE_SET_INSTRUCTIONS) ctx.addIssue({ code: 'custom', message: 'validation.checkRuleTooComplex' });
  });

/** `tooComplex`: the value is too long for these rules to be checked in bounded time (message is then empty) */
export type CheckOutcome = { passed: true } | { passed: false; message: string; tooComplex?: true };

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
  const compiledSteps = steps.map((step) => ({ step, re: compileCheckPattern(step.pattern) }));
  let work = 0;
  for (const { step, re } of compiledSteps) {
    // a pattern RE2 refuses (stored before patterns were checked this way) cannot pass
    if (typeof re === 'string') return { passed: false, message: step.message };
    work += re.re2Input.numberOfInstructions() * (step.target.length + 1);
  }
  if (work > MAX_CHECK_WORK) return { passed: false, message: '', tooComplex: true };
  for (const { step, re } of compiledSteps) {
    // matches() is a whole-value match, as `^(?:pattern)$` was
    if (!(re as RE2JS).matches(step.target)) return { passed: false, message: step.message };
  }
  return { passed: true };
}
