/**
 * The generic validation rules (the origin's rule library): one list that field declarations and the check-rule
 * editor pick from. Each pattern is plain RE2 syntax (no lookaround, no backreference), so it runs the same in a
 * declaration's schema, in a check rule on the server and in the browser.
 */
export const RULE_KEYS = ['digits6to16', 'chars6to16', 'chars6to18', 'url', 'email', 'phone', 'postcode', 'letter', 'number', 'integer', 'nonEmpty', 'money'] as const;
export type RuleKey = (typeof RULE_KEYS)[number];

export interface LibraryRule {
  /** the whole value must match */
  pattern: string;
  /** the label key of its name (crud/labels.ts), also its message in a check rule */
  label: string;
}

export const RULE_LIBRARY: Readonly<Record<RuleKey, LibraryRule>> = {
  digits6to16: { pattern: '^[0-9]{6,16}$', label: 'rule.digits6to16' },
  chars6to16: { pattern: '^[\\s\\S]{6,16}$', label: 'rule.chars6to16' },
  chars6to18: { pattern: '^[\\s\\S]{6,18}$', label: 'rule.chars6to18' },
  url: { pattern: '^(https?|ftp)://[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?([/?#][^\\s]*)?$', label: 'rule.url' },
  email: { pattern: '^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}$', label: 'rule.email' },
  phone: { pattern: '^\\+?[0-9][0-9 -]{5,19}$', label: 'rule.phone' },
  postcode: { pattern: '^[0-9]{6}$', label: 'rule.postcode' },
  letter: { pattern: '^[A-Za-z]+$', label: 'rule.letter' },
  number: { pattern: '^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$', label: 'rule.number' },
  integer: { pattern: '^[+-]?[0-9]+$', label: 'rule.integer' },
  nonEmpty: { pattern: '^[\\s\\S]*[^\\s][\\s\\S]*$', label: 'rule.nonEmpty' },
  money: { pattern: '^(0|[1-9][0-9]*)(\\.[0-9]{1,2})?$', label: 'rule.money' },
};

const compiled = new Map<RuleKey, RegExp>();

/** A library rule as a regular expression, for schemas (`z.string().regex(libraryPattern('postcode'))`). */
export function libraryPattern(key: RuleKey): RegExp {
  let pattern = compiled.get(key);
  if (!pattern) {
    pattern = new RegExp(RULE_LIBRARY[key].pattern, 'u');
    compiled.set(key, pattern);
  }
  return pattern;
}

/** Names of the library rules, merged into `entityLabels`. */
export const ruleLibraryLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'rule.library': ['Pick from the rule library', '从规则库选择', 'ルールライブラリから選ぶ'],
  'rule.digits6to16': ['6 to 16 digits', '6到16位数字', '6〜16桁の数字'],
  'rule.chars6to16': ['6 to 16 characters', '6到16位任意字符', '6〜16文字'],
  'rule.chars6to18': ['6 to 18 characters', '6到18位任意字符', '6〜18文字'],
  'rule.url': ['URL', '网址', 'URL'],
  'rule.email': ['E-mail', '电子邮件', 'メールアドレス'],
  'rule.phone': ['Phone number', '手机号码', '電話番号'],
  'rule.postcode': ['Postcode', '邮政编码', '郵便番号'],
  'rule.letter': ['Letters', '字母', '英字'],
  'rule.number': ['Number', '数字', '数値'],
  'rule.integer': ['Integer', '整数', '整数'],
  'rule.nonEmpty': ['Not empty', '非空', '空欄不可'],
  'rule.money': ['Money', '金额', '金額'],
};
