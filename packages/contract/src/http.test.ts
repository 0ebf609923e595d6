import { describe, expect, it } from 'vitest';
import { answerLanguage } from './http.ts';

describe('the language of an answer', () => {
  it.each([
    ['en-US', 'ja,zh;q=0.5', 'en-US'],
    ['ja', null, 'ja-JP'],
    ['fr', 'ja-JP', 'ja-JP'],
    [null, 'fr-FR,en-GB;q=0.8,ja;q=0.9', 'ja-JP'],
    [null, 'fr, de;q=0.5', 'zh-CN'],
    [null, 'en;q=0, ja;q=0.1', 'ja-JP'],
    [null, '*', 'zh-CN'],
    ['', '', 'zh-CN'],
    [undefined, undefined, 'zh-CN'],
    [null, 'zh-Hans-CN', 'zh-CN'],
  ] as const)('lang %j with Accept-Language %j answers in %s', (lang, accept, expected) => {
    expect(answerLanguage(lang, accept)).toBe(expected);
  });
});
