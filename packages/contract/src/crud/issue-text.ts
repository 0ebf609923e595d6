import type { z } from 'zod';
import type { Language } from '../http.ts';
import { serverMessages, translate, type MessageKey } from '../messages/index.ts';

function isMessageKey(text: string): text is MessageKey {
  return text in serverMessages['en-US'];
}

/**
 * The message of a schema issue in the caller's language, naming the field by its (already localised) label: the
 * server answers with it and the console's forms show the very same words before anything is sent.
 */
export function issueText(lang: Language, field: string, issue: z.core.$ZodIssue, value: unknown): string {
  if (isMessageKey(issue.message)) {
    return translate(lang, issue.message, { field, value: String(value), index: String(Number(issue.path[1] ?? 0) + 1), problem: '' });
  }
  const detail = issue as z.core.$ZodIssue & { origin?: string; minimum?: number | bigint; maximum?: number | bigint; expected?: string };
  switch (issue.code) {
    case 'too_small':
      if (detail.origin === 'string' && Number(detail.minimum) <= 1) return translate(lang, 'validation.required', { field });
      return translate(lang, detail.origin === 'string' ? 'validation.tooShort' : 'validation.tooSmall', { field, min: String(detail.minimum) });
    case 'too_big':
      return translate(lang, detail.origin === 'string' ? 'validation.tooLong' : 'validation.tooBig', { field, max: String(detail.maximum) });
    case 'invalid_type':
      return translate(lang, detail.expected === 'number' || detail.expected === 'int' ? 'validation.integer' : 'validation.invalid', { field });
    case 'invalid_format':
      return translate(lang, 'validation.format', { field });
    case 'invalid_value':
      return translate(lang, 'validation.unknownOption', { field, value: String(value) });
    default:
      return translate(lang, 'validation.invalid', { field });
  }
}
