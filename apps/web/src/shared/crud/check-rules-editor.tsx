import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { RULE_KEYS, RULE_LIBRARY, checkRuleSetSchema, entityLabel, issueText, localCheckRuleSchema, runCheckRules, translate, type Language, type RuleKey } from '@isps/contract';
import { Button, Form, Grid, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage, storedLanguage } from '../i18n/index.ts';

/** One rule as the person edits it: numbers may be missing while typing; `key` keeps the row while rows move. */
interface RuleDraft {
  key: number;
  digits: number | null;
  pattern: string;
  message: string;
  priority: number | null;
}
type RuleColumn = 'digits' | 'pattern' | 'message' | 'priority';
type RuleTableName = 'localRules' | 'globalRules';
type Drafts = Record<RuleTableName, RuleDraft[]>;

const TABLES: Record<RuleTableName, { label: string; columns: RuleColumn[] }> = {
  localRules: { label: 'checkRule.rule.localRules', columns: ['digits', 'pattern', 'message', 'priority'] },
  globalRules: { label: 'checkRule.rule.globalRules', columns: ['pattern', 'message', 'priority'] },
};
const COLUMN_LABELS: Record<RuleColumn, string> = {
  digits: 'checkRule.rule.digits',
  pattern: 'checkRule.rule.pattern',
  message: 'checkRule.rule.message',
  priority: 'checkRule.rule.priority',
};
// numbers keep a fixed width, the texts share the rest; below the minimum width the table scrolls sideways
const COLUMN_WIDTHS: Record<RuleColumn, number | undefined> = { digits: 84, pattern: undefined, message: undefined, priority: 84 };
const MIN_TABLE_WIDTH: Record<RuleTableName, number> = { localRules: 580, globalRules: 500 };
// a phone scrolls the table anyway: the texts get the room of a readable expression or tip
const PHONE_TEXT_WIDTH = 200;
// the schemas the server checks each value of a rule with
const CELL_SCHEMAS = localCheckRuleSchema.shape;

let lastKey = 0;
const nextKey = () => ++lastKey;

function toDraft(item: unknown): RuleDraft {
  const rule = (item !== null && typeof item === 'object' ? item : {}) as Record<string, unknown>;
  const numberOf = (v: unknown) => (typeof v === 'number' ? v : null);
  const textOf = (v: unknown) => (typeof v === 'string' ? v : '');
  return { key: nextKey(), digits: numberOf(rule.digits), pattern: textOf(rule.pattern), message: textOf(rule.message), priority: numberOf(rule.priority) };
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The rows of a stored rule set; text that is not a rule set gives empty tables. */
function toDrafts(value: unknown): Drafts {
  let parsed: unknown = {};
  try {
    if (typeof value === 'string' && value.trim() !== '') parsed = JSON.parse(value);
  } catch {
    parsed = {};
  }
  const listOf = (name: RuleTableName) => {
    const items = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>)[name] : undefined;
    return Array.isArray(items) ? items.map(toDraft) : [];
  };
  return { localRules: listOf('localRules'), globalRules: listOf('globalRules') };
}

/** The value the field stores: the JSON text of the rule set, missing numbers as null for the schema to refuse. */
function toRuleSet(drafts: Drafts) {
  return {
    localRules: drafts.localRules.map(({ digits, pattern, message, priority }) => ({ digits, pattern, message, priority })),
    globalRules: drafts.globalRules.map(({ pattern, message, priority }) => ({ pattern, message, priority })),
  };
}

export function checkRuleSetJson(drafts: Drafts): string {
  return JSON.stringify(toRuleSet(drafts));
}

function cellError(lang: Language, label: string, column: RuleColumn, value: unknown): string | null {
  const parsed = CELL_SCHEMAS[column].safeParse(value);
  if (parsed.success) return null;
  return issueText(lang, label, parsed.error.issues[0]!, value);
}

interface RuleTableProps {
  name: RuleTableName;
  rows: RuleDraft[];
  disabled?: boolean;
  readOnly?: boolean;
  /** the message of a cell to show now, or null */
  errorOf?: (row: RuleDraft, column: RuleColumn) => string | null;
  onEdit?: (row: RuleDraft, column: RuleColumn, value: number | string | null) => void;
  onTouch?: (row: RuleDraft, column: RuleColumn) => void;
  onMove?: (index: number, by: -1 | 1) => void;
  onDelete?: (row: RuleDraft) => void;
}

function RuleTable({ name, rows, disabled, readOnly, errorOf, onEdit, onTouch, onMove, onDelete }: RuleTableProps) {
  const { t } = useTranslation();
  // on a phone a right-fixed actions column would take a third of the narrow table: it scrolls with the rest there
  const wide = Grid.useBreakpoint().md !== false;
  const cell = (row: RuleDraft, index: number, column: RuleColumn): ReactNode => {
    const value = row[column];
    if (readOnly) return column === 'pattern' ? <Typography.Text code>{value}</Typography.Text> : value;
    const error = errorOf?.(row, column) ?? null;
    const ariaLabel = `${t(COLUMN_LABELS[column])} ${index + 1}`;
    const common = { 'aria-label': ariaLabel, 'aria-invalid': error ? true : undefined, disabled, status: error ? ('error' as const) : undefined, onBlur: () => onTouch?.(row, column) };
    return (
      // a cell shows its own state, not that of the whole field around the tables
      <Form.Item noStyle validateStatus={error ? 'error' : ''}>
        {column === 'digits' || column === 'priority' ? (
          <InputNumber {...common} value={value as number | null} min={1} max={9999} precision={0} onChange={(v) => onEdit?.(row, column, v)} style={{ width: '100%' }} />
        ) : (
          <Input
            {...common}
            value={value as string}
            onChange={(e) => onEdit?.(row, column, e.target.value)}
            spellCheck={false}
            style={column === 'pattern' ? { fontFamily: 'monospace' } : undefined}
          />
        )}
        {error ? (
          <Typography.Text type="danger" role="alert" style={{ display: 'block', fontSize: 12, lineHeight: '18px', marginTop: 2 }}>
            {error}
          </Typography.Text>
        ) : null}
      </Form.Item>
    );
  };
  const columns: ColumnsType<RuleDraft> = [
    { key: 'order', title: '#', width: 40, align: 'center', render: (_v, _row, index) => index + 1 },
    ...TABLES[name].columns.map((column) => ({
      key: column,
      title: t(COLUMN_LABELS[column]),
      width: COLUMN_WIDTHS[column] ?? (wide ? undefined : PHONE_TEXT_WIDTH),
      onCell: () => ({ style: { verticalAlign: 'top' as const } }),
      render: (_v: unknown, row: RuleDraft, index: number) => cell(row, index, column),
    })),
  ];
  if (!readOnly) {
    columns.push({
      key: 'actions',
      width: 100,
      fixed: wide ? 'right' : undefined,
      onCell: () => ({ style: { verticalAlign: 'top' as const } }),
      render: (_v, row, index) => (
        <Space size={0}>
          <Button type="text" size="small" icon={<ArrowUpOutlined />} aria-label={t('crud.checkRules.moveUp')} title={t('crud.checkRules.moveUp')} disabled={disabled || index === 0} onClick={() => onMove?.(index, -1)} />
          <Button
            type="text"
            size="small"
            icon={<ArrowDownOutlined />}
            aria-label={t('crud.checkRules.moveDown')}
            title={t('crud.checkRules.moveDown')}
            disabled={disabled || index === rows.length - 1}
            onClick={() => onMove?.(index, 1)}
          />
          <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('crud.checkRules.deleteRule')} title={t('crud.checkRules.deleteRule')} disabled={disabled} onClick={() => onDelete?.(row)} />
        </Space>
      ),
    });
  }
  return (
    <Table<RuleDraft>
      size="small"
      bordered
      rowKey="key"
      columns={columns}
      dataSource={rows}
      pagination={false}
      scroll={{ x: wide ? MIN_TABLE_WIDTH[name] : 'max-content' }}
      locale={{ emptyText: t('crud.checkRules.none') }}
    />
  );
}

interface CheckRulesEditorProps {
  id?: string;
  /** the JSON text of a `CheckRuleSet` */
  value?: unknown;
  onChange?: (value: string) => void;
  disabled?: boolean;
}

/**
 * A check rule set (SPEC sections 3 and 5) as two tables, local rules (per digit, in order) and global rules, each
 * cell checked with the schema the server uses. `CheckRuleTrial` belongs under the field, below its message.
 */
export function CheckRulesEditor({ id, value, onChange, disabled }: CheckRulesEditorProps) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : storedLanguage();
  // the rows follow the value unless the value is the one they just produced
  const [state, setState] = useState(() => ({ source: value, drafts: toDrafts(value) }));
  let drafts = state.drafts;
  if (value !== state.source) {
    drafts = toDrafts(value);
    setState({ source: value, drafts });
  }
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  // after a failed save (or any change the form refuses) every wrong cell shows why
  const { status } = Form.Item.useStatus();
  const revealAll = status === 'error';

  const update = (next: Drafts) => {
    const json = checkRuleSetJson(next);
    setState({ source: json, drafts: next });
    onChange?.(json);
  };
  const touch = (row: RuleDraft, column: RuleColumn) => setTouched((prev) => (prev.has(`${row.key}:${column}`) ? prev : new Set(prev).add(`${row.key}:${column}`)));
  const errorOf = (row: RuleDraft, column: RuleColumn) => cellError(lang, t(COLUMN_LABELS[column]), column, row[column]);
  const shownErrorOf = (row: RuleDraft, column: RuleColumn) => (revealAll || touched.has(`${row.key}:${column}`) ? errorOf(row, column) : null);

  const tableOf = (name: RuleTableName) => {
    const rows = drafts[name];
    const set = (nextRows: RuleDraft[]) => update({ ...drafts, [name]: nextRows });
    const shownErrors = rows.flatMap((row) => TABLES[name].columns.filter((column) => shownErrorOf(row, column) !== null)).length;
    const label = t(TABLES[name].label);
    const nextPriority = Math.max(0, ...[...drafts.localRules, ...drafts.globalRules].map((r) => r.priority ?? 0)) + 1;
    return (
      <section aria-label={label} style={{ marginBottom: 12 }}>
        <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 6 }}>
          <Typography.Text strong>{label}</Typography.Text>
          <Button size="small" icon={<PlusOutlined />} disabled={disabled} onClick={() => set([...rows, { key: nextKey(), digits: name === 'localRules' ? 1 : null, pattern: '', message: '', priority: Math.min(nextPriority, 9999) }])}>
            {t('crud.checkRules.addRule')}
          </Button>
        </Space>
        <RuleTable
          name={name}
          rows={rows}
          disabled={disabled}
          errorOf={shownErrorOf}
          onTouch={touch}
          onEdit={(row, column, cellValue) => {
            touch(row, column);
            set(rows.map((r) => (r.key === row.key ? { ...r, [column]: cellValue } : r)));
          }}
          onMove={(index, by) => {
            const next = [...rows];
            const [moved] = next.splice(index, 1);
            next.splice(index + by, 0, moved!);
            set(next);
          }}
          onDelete={(row) => set(rows.filter((r) => r.key !== row.key))}
        />
        {shownErrors > 0 ? (
          <Typography.Text type="danger" role="alert" style={{ display: 'block', marginTop: 4 }}>
            {t('crud.checkRules.tableErrors', { table: label, count: shownErrors })}
          </Typography.Text>
        ) : null}
      </section>
    );
  };

  const empty = drafts.localRules.length + drafts.globalRules.length === 0;
  // stored text that is no JSON at all shows as empty tables, and says so: saving would replace it
  const notJson = typeof value === 'string' && value.trim() !== '' && !isJsonText(value);

  return (
    <div id={id} style={{ width: '100%' }}>
      {notJson ? (
        <Typography.Text type="warning" role="alert" style={{ display: 'block', marginBottom: 8 }}>
          {t('crud.componentValueNotJson')}
        </Typography.Text>
      ) : null}
      {tableOf('localRules')}
      {tableOf('globalRules')}
      <Select<RuleKey>
        size="small"
        aria-label={entityLabel(lang, 'rule.library')}
        placeholder={entityLabel(lang, 'rule.library')}
        disabled={disabled}
        value={null}
        style={{ minWidth: 220, marginBottom: 8 }}
        options={RULE_KEYS.map((key) => ({ value: key, label: entityLabel(lang, RULE_LIBRARY[key].label) }))}
        onChange={(key) => {
          // a library rule is a global rule: the whole value must match it
          const nextPriority = Math.max(0, ...[...drafts.localRules, ...drafts.globalRules].map((r) => r.priority ?? 0)) + 1;
          const rule = RULE_LIBRARY[key];
          update({ ...drafts, globalRules: [...drafts.globalRules, { key: nextKey(), digits: null, pattern: rule.pattern, message: entityLabel(lang, rule.label), priority: Math.min(nextPriority, 9999) }] });
        }}
      />
      {empty ? (
        <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
          {translate(lang, 'validation.checkRuleEmpty')}
        </Typography.Text>
      ) : null}
    </div>
  );
}

/**
 * The box under a check rule field (the form item's `extra`, so that the field's own message stays next to the
 * tables): tries the rules being edited, the value of the field `name` of the surrounding form, on a typed value.
 */
export function CheckRuleTrial({ name }: { name: string }) {
  const { t, i18n } = useTranslation();
  const lang = isLanguage(i18n.language) ? i18n.language : storedLanguage();
  const value: unknown = Form.useWatch(name);
  const [trial, setTrial] = useState('');
  const drafts = toDrafts(value);
  const empty = drafts.localRules.length + drafts.globalRules.length === 0;
  let outcome: ReactNode = null;
  if (trial !== '') {
    const ruleSet = checkRuleSetSchema.safeParse(toRuleSet(drafts));
    if (!ruleSet.success || empty) outcome = <Typography.Text type="secondary">{t('crud.checkRules.tryUnavailable')}</Typography.Text>;
    else {
      const result = runCheckRules(ruleSet.data, trial);
      outcome = !result.passed && result.tooComplex ? (
        <Typography.Text type="secondary">{translate(lang, 'checkRule.tooComplex')}</Typography.Text>
      ) : result.passed ? (
        <Typography.Text type="success">{t('crud.checkRules.tryPassed')}</Typography.Text>
      ) : (
        <Typography.Text type="danger">{t('crud.checkRules.tryFailed', { message: result.message })}</Typography.Text>
      );
    }
  }
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%', marginTop: 8 }}>
      <Typography.Text strong>{t('crud.checkRules.try')}</Typography.Text>
      {/* the field's error status is not this box's */}
      <Form.Item noStyle validateStatus="">
        <Input
          value={trial}
          onChange={(e) => setTrial(e.target.value)}
          aria-label={t('crud.checkRules.try')}
          placeholder={t('crud.checkRules.tryPlaceholder')}
          allowClear
          spellCheck={false}
        />
      </Form.Item>
      <div aria-live="polite">{outcome}</div>
    </Space>
  );
}

/** A stored rule set read-only, for the detail view. */
export function CheckRulesView({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const drafts = toDrafts(value);
  return (
    <Space orientation="vertical" size={8} style={{ width: '100%' }}>
      {(['localRules', 'globalRules'] as const).map((name) => (
        <section key={name} aria-label={t(TABLES[name].label)}>
          <Typography.Text strong style={{ display: 'block', marginBottom: 4 }}>
            {t(TABLES[name].label)}
          </Typography.Text>
          <RuleTable name={name} rows={drafts[name]} readOnly />
        </section>
      ))}
    </Space>
  );
}
