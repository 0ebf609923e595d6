import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../http.ts';
import { serverMessages } from '../messages/index.ts';
import { entityDeclarations } from './registry.ts';
import { entityLabels } from './labels.ts';
import { runCheckRules } from './check-rule.ts';

describe('entity declarations', () => {
  it('translate every title, field label and option label in three languages', () => {
    const keys = new Set<string>(['crud.field.createBy', 'crud.field.createTime', 'crud.field.updateBy', 'crud.field.updateTime']);
    for (const entity of entityDeclarations) {
      keys.add(entity.title);
      for (const field of Object.values(entity.fields)) {
        keys.add(field.label);
        if (field.widget.kind === 'options') for (const option of field.widget.options) keys.add(option.label);
      }
    }
    for (const lang of LANGUAGES) expect([...keys].filter((k) => !entityLabels[lang][k]), lang).toEqual([]);
  });

  it('name only declared fields in columns, search, sort and unique lists', () => {
    const audit = ['createBy', 'createTime', 'updateBy', 'updateTime'];
    for (const entity of entityDeclarations) {
      const known = new Set([...Object.keys(entity.fields), ...audit]);
      const named = [...entity.columns, ...Object.keys(entity.search), ...entity.sortable, entity.defaultSort.field, ...(entity.unique ?? []).map((u) => u.field)];
      expect(named.filter((n) => !known.has(n)), entity.name).toEqual([]);
      expect((entity.phoneColumns ?? []).filter((n) => !entity.columns.includes(n)), entity.name).toEqual([]);
      for (const unique of entity.unique ?? []) expect(serverMessages['en-US'][unique.message]).toBeTruthy();
      expect(Object.entries(entity.fields).filter(([, f]) => f.writeOnly).map(([n]) => n).filter((n) => entity.columns.includes(n))).toEqual([]);
    }
  });

  it('give every screen its own name, table path and menu component', () => {
    for (const key of ['name', 'basePath', 'component'] as const) {
      const values = entityDeclarations.map((e) => e[key]);
      expect(values.filter((v, i) => values.indexOf(v) !== i), key).toEqual([]);
    }
  });
});

describe('check rules', () => {
  const rules = {
    localRules: [
      { digits: 1, pattern: '[A-Z]', message: 'letter first', priority: 2 },
      { digits: 2, pattern: '\\d\\d', message: 'two digits', priority: 3 },
    ],
    globalRules: [{ pattern: '.{3,4}', message: 'three or four', priority: 1 }],
  };
  it('checks local rules digit by digit in order and global rules over the whole value', () => {
    expect(runCheckRules(rules, 'A12')).toEqual({ passed: true });
    expect(runCheckRules(rules, 'A12x')).toEqual({ passed: true });
    expect(runCheckRules(rules, 'a12')).toEqual({ passed: false, message: 'letter first' });
    expect(runCheckRules(rules, 'A1x')).toEqual({ passed: false, message: 'two digits' });
    expect(runCheckRules(rules, 'A12345')).toEqual({ passed: false, message: 'three or four' });
  });
  it('runs by priority', () => {
    expect(runCheckRules(rules, 'a')).toEqual({ passed: false, message: 'three or four' });
    const localFirst = { ...rules, globalRules: [{ ...rules.globalRules[0]!, priority: 9 }] };
    expect(runCheckRules(localFirst, 'a')).toEqual({ passed: false, message: 'letter first' });
  });
});
