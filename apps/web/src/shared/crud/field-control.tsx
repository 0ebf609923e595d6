import type { EntityDeclaration, FieldDeclaration, MatchKind, TreeRow } from '@isps/contract';
import { DatePicker, Input, InputNumber, Select, Space, Switch, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDictItems } from '../api/index.ts';
import { useEntityOptions } from './api/entity-options.ts';
import { useLinkOptions, type LinkPicker } from './api/link-options.ts';
import { useChoosableValues } from './api/choosable-values.ts';
import { useServerOptions } from './api/server-options.ts';
import { useTreeList } from './api/query-tree-list.ts';
import { CronInput, IconPicker } from '../ui/index.ts';
import { CheckRulesEditor } from './check-rules-editor.tsx';
import { fieldKind, findEntity } from './entity-fields.ts';
import { FileUpload } from './file-upload.tsx';
import { ImageUpload } from './image-upload.tsx';
import { TimeSettingEditor } from './time-setting-editor.tsx';
import { useCrudPermissions } from './use-crud-permissions.ts';

/** The tree a treeSelect picks from: another entity's when the widget names one, else the entity's own. */
function treeEntityOf(entity: EntityDeclaration, widget: { entity?: string }): EntityDeclaration {
  return (widget.entity ? findEntity(widget.entity) : undefined) ?? entity;
}

/** antd passes `value` / `onChange` (and the field's id, which links the label) to the control of a Form.Item. */
interface ControlProps {
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  disabled?: boolean;
}

function DictSelect({ code, ...props }: ControlProps & { code: string }) {
  const { t } = useTranslation();
  const items = useDictItems(code);
  return (
    <Select
      id={props.id}
      value={props.value as string | undefined}
      onChange={props.onChange}
      disabled={props.disabled}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={items.isLoading}
      placeholder={t('crud.select')}
      options={(items.data ?? []).map((o) => ({ value: o.value, label: o.text }))}
    />
  );
}

/** The values already set, and those the caller may choose (all when `choosable` is null). */
const offered = (choosable: ReadonlySet<string> | null, value: unknown) => {
  const set = new Set(Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? value.split(',') : []);
  return (id: string) => !choosable || choosable.has(id) || set.has(id);
};

/**
 * Rows of another entity to pick from. With `picker` (a field of a form, or a list's search by it for those who may
 * add or edit its rows) they come through the owner's linkOptions, so picking needs no permission to the linked list.
 * `maxCount` caps how many a multiple pick holds (a one-person cabinet's holder).
 */
export function EntitySelect({
  entityName,
  labelField,
  valueField,
  multiple,
  maxCount,
  choosableFrom,
  picker,
  ...props
}: ControlProps & { entityName: string; labelField: string; valueField?: string; multiple?: boolean; maxCount?: number; choosableFrom?: string; picker?: LinkPicker }) {
  const { t } = useTranslation();
  const entity = findEntity(entityName);
  const listed = useEntityOptions(picker ? undefined : entity, labelField, valueField);
  const linked = useLinkOptions(picker, entityName);
  const options = picker ? linked : listed;
  const { choosable, isLoading } = useChoosableValues(choosableFrom);
  const shown = offered(choosable, props.value);
  return (
    <Select
      id={props.id}
      mode={multiple ? 'multiple' : undefined}
      maxCount={multiple ? maxCount : undefined}
      value={props.value as string | string[] | undefined}
      onChange={props.onChange}
      disabled={props.disabled}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={options.isLoading || isLoading}
      placeholder={t('crud.select')}
      options={(options.data ?? []).filter((o) => shown(String(o.value)))}
    />
  );
}

function EntityTreeSelect({ entity, multiple, ownTree, choosableFrom, ...props }: ControlProps & { entity: EntityDeclaration; multiple?: boolean; ownTree: boolean; choosableFrom?: string }) {
  const { t } = useTranslation();
  const tree = useTreeList(entity);
  // titles that are i18n keys (menu names) are shown translated
  const translated = Boolean(entity.tree && entity.fields[entity.tree.labelField]?.translated);
  const localise = (nodes: TreeRow[]): TreeRow[] => nodes.map((n) => ({ ...n, title: t(n.title), ...(n.children ? { children: localise(n.children) } : {}) }));
  const { choosable, isLoading } = useChoosableValues(choosableFrom);
  const shown = offered(choosable, props.value);
  // nodes the caller may not choose stay in the tree (their children may be his) but cannot be picked
  const limit = (nodes: TreeRow[]): TreeRow[] => nodes.map((n) => ({ ...n, disabled: !shown(String(n.key)), ...(n.children ? { children: limit(n.children) } : {}) }));
  const titled = translated ? localise(tree.data ?? []) : ((tree.data ?? []) as TreeRow[]);
  const treeData = choosable ? limit(titled) : titled;
  return (
    <TreeSelect<string | string[]>
      id={props.id}
      value={props.value as string | string[] | undefined}
      onChange={props.onChange}
      multiple={multiple}
      disabled={props.disabled}
      allowClear
      showSearch
      treeNodeFilterProp="title"
      loading={tree.isLoading || isLoading}
      placeholder={ownTree ? t('crud.treeRoot') : t('crud.select')}
      treeData={treeData}
      treeDefaultExpandAll
    />
  );
}

function OptionsSelect({ field, ...props }: ControlProps & { field: FieldDeclaration & { widget: { kind: 'options' } } }) {
  const { t } = useTranslation();
  const { options, multiple } = field.widget;
  // several values keep the declared order (Monday before Friday), whatever order they were picked in
  const order = (values: string[]) => [...values].sort((a, b) => options.findIndex((o) => o.value === a) - options.findIndex((o) => o.value === b));
  return (
    <Select<string | string[]>
      id={props.id}
      mode={multiple ? 'multiple' : undefined}
      value={props.value as string | string[] | undefined}
      onChange={(value) => props.onChange?.(Array.isArray(value) ? (value.length > 0 ? order(value) : undefined) : value)}
      disabled={props.disabled}
      allowClear
      placeholder={t('crud.select')}
      options={field.widget.options.map((o) => ({ value: o.value, label: t(o.label) }))}
    />
  );
}

/** A choice among what the server offers at the field's `optionsFrom` (the job handlers it runs, the databases it reaches). */
function ServerOptionsSelect({ path, ...props }: ControlProps & { path: string }) {
  const { t } = useTranslation();
  const options = useServerOptions(path);
  return (
    <Select
      id={props.id}
      value={props.value as string | undefined}
      onChange={props.onChange}
      disabled={props.disabled}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={options.isLoading}
      placeholder={t('crud.select')}
      options={(options.data ?? []).map((o) => ({ value: o.value, label: o.text }))}
    />
  );
}

function YesNoSelect(props: ControlProps) {
  const { t } = useTranslation();
  return (
    <Select
      id={props.id}
      value={props.value as string | undefined}
      onChange={props.onChange}
      allowClear
      placeholder={t('crud.select')}
      options={[
        { value: '1', label: t('crud.yes') },
        { value: '0', label: t('crud.no') },
      ]}
    />
  );
}

/** The control of a field in the modal form, chosen by its declared widget. */
export function FormControl({ entity, name, mode, ...props }: ControlProps & { entity: EntityDeclaration; name: string; mode: 'add' | 'edit' }) {
  const { t } = useTranslation();
  const field = entity.fields[name];
  if (!field) return null;
  if (field.optionsFrom) return <ServerOptionsSelect path={field.optionsFrom} {...props} />;
  const widget = field.widget;
  switch (widget.kind) {
    case 'textarea':
      return <Input.TextArea id={props.id} value={props.value as string} onChange={(e) => props.onChange?.(e.target.value)} disabled={props.disabled} autoSize={{ minRows: 2, maxRows: 6 }} />;
    case 'json':
      return (
        <Input.TextArea
          id={props.id}
          value={props.value as string}
          onChange={(e) => props.onChange?.(e.target.value)}
          disabled={props.disabled}
          autoSize={{ minRows: 4, maxRows: 12 }}
          spellCheck={false}
          style={{ fontFamily: 'monospace' }}
        />
      );
    case 'timeSetting':
      return <TimeSettingEditor id={props.id} value={props.value} onChange={props.onChange} disabled={props.disabled} />;
    case 'checkRules':
      return <CheckRulesEditor id={props.id} value={props.value} onChange={props.onChange} disabled={props.disabled} />;
    case 'number':
      return <InputNumber id={props.id} value={props.value as number} onChange={props.onChange} disabled={props.disabled} min={widget.min} max={widget.max} precision={0} style={{ width: '100%' }} />;
    case 'select':
      return <DictSelect code={widget.dict} {...props} />;
    case 'entitySelect':
      return (
        <EntitySelect
          entityName={widget.entity}
          labelField={widget.labelField}
          valueField={widget.valueField}
          multiple={widget.multiple}
          choosableFrom={field.choosableFrom}
          picker={{ owner: entity, field: name }}
          {...props}
        />
      );
    case 'switch':
      return <Switch id={props.id} checked={Boolean(props.value)} onChange={props.onChange} disabled={props.disabled} />;
    case 'date':
    case 'datetime':
      return (
        <DatePicker
          id={props.id}
          value={props.value as never}
          onChange={props.onChange}
          disabled={props.disabled}
          showTime={widget.kind === 'datetime'}
          style={{ width: '100%' }}
          // Enter takes the typed date; it must not also submit the half-filled form around the field
          onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
        />
      );
    case 'treeSelect':
      return <EntityTreeSelect entity={treeEntityOf(entity, widget)} ownTree={!widget.entity} multiple={widget.multiple} choosableFrom={field.choosableFrom} {...props} />;
    case 'password':
      return (
        <Input.Password
          id={props.id}
          value={props.value as string}
          onChange={(e) => props.onChange?.(e.target.value)}
          disabled={props.disabled}
          autoComplete="new-password"
          placeholder={mode === 'edit' ? t('crud.passwordKeep') : undefined}
        />
      );
    case 'options':
      return <OptionsSelect field={field as FieldDeclaration & { widget: typeof widget }} {...props} />;
    case 'cron':
      return <CronInput id={props.id} value={props.value as string | undefined} onChange={props.onChange} disabled={props.disabled} />;
    case 'icon':
      return <IconPicker id={props.id} value={props.value as string | undefined} onChange={props.onChange} disabled={props.disabled} />;
    case 'image':
      return <ImageUpload {...props} maxBytes={widget.maxBytes} />;
    case 'file':
      return <FileUpload {...props} maxBytes={widget.maxBytes} />;
    default:
      return <Input id={props.id} value={props.value as string} onChange={(e) => props.onChange?.(e.target.value)} disabled={props.disabled} allowClear />;
  }
}

function NumberRange({ id, value, onChange }: ControlProps) {
  const { t } = useTranslation();
  const [from, to] = Array.isArray(value) ? (value as Array<number | null>) : [null, null];
  return (
    <Space.Compact block>
      <InputNumber id={id} value={from} onChange={(v) => onChange?.([v, to])} placeholder={t('crud.rangeFrom')} style={{ width: '50%' }} />
      <InputNumber value={to} onChange={(v) => onChange?.([from, v])} placeholder={t('crud.rangeTo')} style={{ width: '50%' }} />
    </Space.Compact>
  );
}

/** The control of a search field: pickers for dictionaries, options and trees, range pickers for `range`. */
export function SearchControl({ entity, name, match, ...props }: ControlProps & { entity: EntityDeclaration; name: string; match: MatchKind }) {
  const { t } = useTranslation();
  const kind = fieldKind(entity, name);
  const field = entity.fields[name];
  const { add, edit } = useCrudPermissions(entity);
  const mayWrite = add || edit;
  if (match === 'range') {
    if (kind === 'datetime' || kind === 'date') {
      return (
        <DatePicker.RangePicker
          id={props.id}
          value={props.value as never}
          onChange={(v) => props.onChange?.(v)}
          placeholder={[t('crud.rangeFrom'), t('crud.rangeTo')]}
          style={{ width: '100%' }}
        />
      );
    }
    return <NumberRange {...props} />;
  }
  const widget = field?.widget;
  if (widget?.kind === 'select') return <DictSelect code={widget.dict} {...props} />;
  if (widget?.kind === 'entitySelect') {
    // the form's choices serve the search for those who may add or edit rows; the others read the linked list, as its holders
    const picker = mayWrite && !field?.readOnly && !field?.systemAdminOnly ? { owner: entity, field: name } : undefined;
    return <EntitySelect entityName={widget.entity} labelField={widget.labelField} valueField={widget.valueField} picker={picker} {...props} />;
  }
  if (widget?.kind === 'options' && field) return <OptionsSelect field={field as FieldDeclaration & { widget: typeof widget }} {...props} />;
  if (widget?.kind === 'treeSelect') return <EntityTreeSelect entity={treeEntityOf(entity, widget)} ownTree={!widget.entity} {...props} />;
  if (widget?.kind === 'switch') return <YesNoSelect {...props} />;
  if (kind === 'datetime' || kind === 'date') {
    return <DatePicker id={props.id} value={props.value as never} onChange={props.onChange} style={{ width: '100%' }} />;
  }
  return (
    <Input
      id={props.id}
      value={props.value as string}
      onChange={(e) => props.onChange?.(e.target.value)}
      allowClear
    />
  );
}
