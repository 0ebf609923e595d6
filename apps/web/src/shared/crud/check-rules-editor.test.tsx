import { RULE_LIBRARY, checkRuleEntity, translate } from '@isps/contract';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Form, type FormInstance } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { CheckRuleTrial, CheckRulesEditor } from './check-rules-editor.tsx';
import { displayValue } from './entity-fields.ts';
import { fieldRules } from './zod-rules.ts';

const field = checkRuleEntity.fields.ruleJson!;
const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

/** The editor as the modal form holds it: a Form.Item with the field's rules; returns the form and the values it got. */
function renderEditor(initial?: string) {
  const values: string[] = [];
  let form: FormInstance | undefined;
  function Harness() {
    const [instance] = Form.useForm();
    form = instance;
    return (
      <Form form={instance} initialValues={{ ruleJson: initial }} onValuesChange={(changed: { ruleJson?: string }) => changed.ruleJson !== undefined && values.push(changed.ruleJson)}>
        <Form.Item name="ruleJson" label="Rules" rules={fieldRules(field, { mode: 'add', label: 'Rules', lang: 'en-US' })} validateFirst extra={<CheckRuleTrial name="ruleJson" />}>
          <CheckRulesEditor />
        </Form.Item>
      </Form>
    );
  }
  render(
    <I18nextProvider i18n={i18n}>
      <Harness />
    </I18nextProvider>,
  );
  return { values, form: () => form!, last: () => JSON.parse(values[values.length - 1]!) as unknown };
}

const table = (name: 'Local rules' | 'Global rules') => within(screen.getByRole('region', { name }));
const type = (input: HTMLElement, value: string) => {
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};

describe('the check rule editor', () => {
  it('says the component value must be a JSON string when the stored value is not one', async () => {
    renderEditor('not json at all');
    expect((await screen.findByRole('alert')).textContent).toBe('The component value must be a JSON string');
    cleanup();
    renderEditor('{"localRules":[],"globalRules":[]}');
    expect(screen.queryByText('The component value must be a JSON string')).toBeNull();
  });

  it('adds a global rule picked from the shared rule library, with its name as the tip', async () => {
    const { last } = renderEditor();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Pick from the rule library' }));
    fireEvent.click(await screen.findByTitle('Postcode'));
    expect(last()).toEqual({ localRules: [], globalRules: [{ pattern: RULE_LIBRARY.postcode.pattern, message: 'Postcode', priority: 1 }] });
    expect((table('Global rules').getByRole('textbox', { name: 'Expression 1' }) as HTMLInputElement).value).toBe(RULE_LIBRARY.postcode.pattern);
  });

  it('adds local and global rows, edits them and produces the JSON the API stores', async () => {
    const { last } = renderEditor();
    expect(screen.getByText(translate('en-US', 'validation.checkRuleEmpty'))).toBeTruthy();

    fireEvent.click(table('Local rules').getByRole('button', { name: /Add rule/ }));
    const local = table('Local rules');
    expect((local.getByRole('spinbutton', { name: 'Digits 1' }) as HTMLInputElement).value).toBe('1');
    type(local.getByRole('spinbutton', { name: 'Digits 1' }), '2');
    type(local.getByRole('textbox', { name: 'Expression 1' }), '[A-Z]+');
    type(local.getByRole('textbox', { name: 'Tip text 1' }), 'Two letters first');

    fireEvent.click(table('Global rules').getByRole('button', { name: /Add rule/ }));
    const global = table('Global rules');
    expect(global.queryByRole('spinbutton', { name: 'Digits 1' })).toBeNull();
    type(global.getByRole('textbox', { name: 'Expression 1' }), '\\w{4,}');
    type(global.getByRole('textbox', { name: 'Tip text 1' }), 'Four characters at least');
    type(global.getByRole('spinbutton', { name: 'Priority 1' }), '5');

    expect(last()).toEqual({
      localRules: [{ digits: 2, pattern: '[A-Z]+', message: 'Two letters first', priority: 1 }],
      globalRules: [{ pattern: '\\w{4,}', message: 'Four characters at least', priority: 5 }],
    });
    expect(screen.queryByText(translate('en-US', 'validation.checkRuleEmpty'))).toBeNull();
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('shows why a cell is wrong beside it, and an error line under the table that holds it', async () => {
    const { form } = renderEditor(JSON.stringify({ localRules: [{ digits: 2, pattern: '[A-Z]+', message: 'Letters', priority: 1 }], globalRules: [{ pattern: '.+', message: 'Anything', priority: 2 }] }));
    const local = table('Local rules');
    type(local.getByRole('textbox', { name: 'Expression 1' }), '[A-Z');
    type(local.getByRole('textbox', { name: 'Tip text 1' }), '   ');
    expect(await local.findByText('Expression is not a valid regular expression')).toBeTruthy();
    expect(local.getByText('Tip text is required')).toBeTruthy();
    expect(local.getByText('Local rules: 2 values to correct')).toBeTruthy();
    expect(local.getByRole('textbox', { name: 'Expression 1' }).getAttribute('aria-invalid')).toBe('true');
    // the global table has nothing to correct
    expect(table('Global rules').queryAllByRole('alert')).toEqual([]);
    // one wrong cell left: the count takes the singular
    type(local.getByRole('textbox', { name: 'Tip text 1' }), 'Letters');
    expect(await local.findByText('Local rules: 1 value to correct')).toBeTruthy();

    // the form refuses to save the set, with the server's words
    await act(async () => {
      await expect(form().validateFields()).rejects.toMatchObject({ errorFields: [{ name: ['ruleJson'] }] });
    });
    expect(form().getFieldError('ruleJson')[0]).toMatch(/^Rules /);
  });

  it('reveals every wrong cell once the form refuses the set, and wants positive integers', async () => {
    const { form } = renderEditor(JSON.stringify({ localRules: [], globalRules: [{ pattern: '', message: 'x', priority: 0 }] }));
    expect(table('Global rules').queryAllByRole('alert')).toEqual([]);
    await act(async () => {
      await form().validateFields().catch(() => undefined);
    });
    const global = table('Global rules');
    expect(await global.findByText('Expression is required')).toBeTruthy();
    expect(global.getByText('Priority must be a positive integer')).toBeTruthy();
    expect(global.getByText('Global rules: 2 values to correct')).toBeTruthy();
  });

  it('moves and deletes local rules, keeping their order in the JSON', () => {
    const rule = (pattern: string) => ({ digits: 1, pattern, message: pattern, priority: 1 });
    const { last } = renderEditor(JSON.stringify({ localRules: [rule('a'), rule('b'), rule('c')], globalRules: [] }));
    const local = table('Local rules');
    const moveDown = local.getAllByRole('button', { name: 'Move down' });
    expect((local.getAllByRole('button', { name: 'Move up' })[0] as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(moveDown[0]!);
    expect(last()).toMatchObject({ localRules: [{ pattern: 'b' }, { pattern: 'a' }, { pattern: 'c' }] });
    fireEvent.click(local.getAllByRole('button', { name: 'Move up' })[2]!);
    expect(last()).toMatchObject({ localRules: [{ pattern: 'b' }, { pattern: 'c' }, { pattern: 'a' }] });
    fireEvent.click(local.getAllByRole('button', { name: 'Delete rule' })[0]!);
    expect(last()).toEqual({ localRules: [rule('c'), rule('a')], globalRules: [] });
    expect((local.getByRole('textbox', { name: 'Expression 1' }) as HTMLInputElement).value).toBe('c');
  });

  it('keeps the row buttons on the right of a wide table; on a phone the whole table scrolls, the texts at a readable width', () => {
    const rules = JSON.stringify({ localRules: [{ digits: 2, pattern: '[A-Z]+', message: 'Two letters first', priority: 1 }], globalRules: [] });
    const fixedCells = () => screen.getByRole('region', { name: 'Local rules' }).querySelectorAll('[class*="ant-table-cell-fix"]').length;
    const columnWidths = () => [...screen.getByRole('region', { name: 'Local rules' }).querySelectorAll('colgroup col')].map((col) => (col as HTMLElement).style.width);
    const width = window.innerWidth;
    try {
      renderEditor(rules);
      expect(fixedCells()).toBeGreaterThan(0);
      cleanup();
      Object.defineProperty(window, 'innerWidth', { value: 375, configurable: true });
      renderEditor(rules);
      expect(fixedCells()).toBe(0);
      // #, digits, expression, tip text, priority, the row buttons
      expect(columnWidths()).toEqual(['40px', '84px', '200px', '200px', '84px', '100px']);
    } finally {
      Object.defineProperty(window, 'innerWidth', { value: width, configurable: true });
    }
  });

  it('tries a typed value against the rules', async () => {
    renderEditor(JSON.stringify({ localRules: [{ digits: 2, pattern: '[A-Z]+', message: 'Two letters first', priority: 1 }], globalRules: [{ pattern: '.{4,}', message: 'Four at least', priority: 2 }] }));
    const trial = screen.getByRole('textbox', { name: 'Try a value' });
    fireEvent.change(trial, { target: { value: 'AB12' } });
    expect(screen.getByText('The value passes every rule')).toBeTruthy();
    fireEvent.change(trial, { target: { value: 'ab12' } });
    expect(screen.getByText('Refused: Two letters first')).toBeTruthy();
    fireEvent.change(trial, { target: { value: 'AB' } });
    expect(screen.getByText('Refused: Four at least')).toBeTruthy();
    type(table('Local rules').getByRole('textbox', { name: 'Expression 1' }), '(');
    // the box reads the rules from the form, which tells its watchers after the change
    expect(await screen.findByText('Correct the rules to try a value')).toBeTruthy();
  });

  it('tries a catastrophic-backtracking pattern at once and says when a value is too long for heavy rules', () => {
    renderEditor(JSON.stringify({ localRules: [], globalRules: [{ pattern: '(a+)+$', message: 'Letters a only', priority: 1 }] }));
    const trial = screen.getByRole('textbox', { name: 'Try a value' });
    const started = performance.now();
    fireEvent.change(trial, { target: { value: `${'a'.repeat(40)}!` } });
    expect(screen.getByText('Refused: Letters a only')).toBeTruthy();
    expect(performance.now() - started).toBeLessThan(1000);
    cleanup();
    renderEditor(JSON.stringify({ localRules: [], globalRules: [{ pattern: '(?:[ab]{1,40}c?){1,10}', message: 'm', priority: 1 }] }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Try a value' }), { target: { value: 'a'.repeat(1000) } });
    expect(screen.getByText(translate('en-US', 'checkRule.tooComplex'))).toBeTruthy();
  });

  it('refuses backreferences and lookaround in an expression cell', async () => {
    renderEditor(JSON.stringify({ localRules: [], globalRules: [{ pattern: 'x', message: 'm', priority: 1 }] }));
    type(table('Global rules').getByRole('textbox', { name: 'Expression 1' }), '(a)\\1');
    expect(await screen.findByText(translate('en-US', 'validation.regexUnsupported', { field: 'Expression' }))).toBeTruthy();
  });

  it("shows the field's message by the tables, above the box that tries a value", async () => {
    const { form } = renderEditor();
    await act(async () => {
      await form().validateFields().catch(() => undefined);
    });
    const message = await screen.findByText('Rules is required');
    const trial = screen.getByRole('textbox', { name: 'Try a value' });
    expect(message.compareDocumentPosition(trial) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(trial.closest('.ant-input-status-error, .ant-input-affix-wrapper-status-error')).toBeNull();
  });

  it('sums a stored set up in lists and details', () => {
    const row = { ruleJson: JSON.stringify({ localRules: [{}, {}], globalRules: [{}] }) };
    expect(displayValue(checkRuleEntity, 'ruleJson', row, t)).toBe('2 local, 1 global');
    i18n.changeLanguage('zh-CN');
    expect(displayValue(checkRuleEntity, 'ruleJson', row, t)).toBe('局部 2 条，全局 1 条');
    i18n.changeLanguage('en-US');
  });
});
