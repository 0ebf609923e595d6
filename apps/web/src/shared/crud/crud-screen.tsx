import { DeleteOutlined, DownloadOutlined, FilterOutlined, PlusOutlined, RestOutlined } from '@ant-design/icons';
import { ellipsis, permissionCode, type EntityDeclaration, type ImportReport } from '@isps/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Card, Flex, Popconfirm, Result, Space, type FormInstance } from 'antd';
import { useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Authorized } from '../permission/index.ts';
import { IconByName, LoadFailed } from '../ui/index.ts';
import { useDeleteEntity } from './api/delete-entity.ts';
import { useDeleteEntityBatch } from './api/delete-entity-batch.ts';
import { useExportEntities } from './api/export-entities.ts';
import { crudKeys } from './api/keys.ts';
import { useEntityList } from './api/list-entity.ts';
import { useTreeList } from './api/query-tree-list.ts';
import { RowStateProvider } from './row-state.tsx';
import { CrudTable, type CrudColumn } from './crud-table.tsx';
import { DetailDrawer } from './detail-drawer.tsx';
import { columnWidth, displayValue, fieldLabelKey, isFreeText, type CrudRow } from './entity-fields.ts';
import { EntityFormModal } from './entity-form-modal.tsx';
import { EntityLabel } from './entity-label.tsx';
import { SearchControl } from './field-control.tsx';
import { ImportButton } from './import-button.tsx';
import { ImportReportModal } from './import-report-modal.tsx';
import { useLiveColumn } from './live-column.ts';
import { exportParams, isFiltered, listParams, type ListState, type SortOrder, type SuperQuery } from './query-params.ts';
import { RecycleBinModal } from './recycle-bin-modal.tsx';
import { useReloadOn } from './reload-on.ts';
import { RowCommandButton } from './row-commands.tsx';
import { SearchBar } from './search-bar.tsx';
import { SuperQueryModal } from './super-query-modal.tsx';
import { ToolbarFold } from './toolbar-fold.tsx';
import { useCrudPermissions } from './use-crud-permissions.ts';

export interface CrudExtensionProps {
  entity: EntityDeclaration;
  /** reloads every list of the entity */
  refresh: () => void;
}

/** Custom behaviour of one screen, added beside the generic page (never a copy of it). */
export interface CrudExtension {
  /** buttons after the toolbar's own; `selected` are the checked rows' ids (batch actions), `conditions` the search's */
  Toolbar?: ComponentType<CrudExtensionProps & { selected: string[]; clearSelection: () => void; conditions: Readonly<Record<string, unknown>> }>;
  /** rows can be checked for the toolbar's batch actions even without the delete permission */
  batch?: boolean;
  /** actions after a row's edit / details / delete */
  RowActions?: ComponentType<CrudExtensionProps & { row: CrudRow }>;
  /** the list card's title, told what the list holds: the search's conditions and the fixed values */
  Title?: ComponentType<CrudExtensionProps & { conditions: Readonly<Record<string, unknown>> }>;
  /** controls beside a form field, by field name (a button that fills it from a device) */
  FormAddons?: Readonly<Record<string, ComponentType<FormAddonProps>>>;
}

export interface FormAddonProps {
  /** the form's field the control fills */
  name: string;
  form: FormInstance;
}

export interface CrudScreenProps {
  entity: EntityDeclaration;
  extension?: CrudExtension;
  /** field values the screen fixes: filtered by, sent on add, not shown in the search form or the form */
  fixed?: Record<string, string>;
  /** inside another screen's modal: no outer cards */
  embedded?: boolean;
}

type FormState = { mode: 'add' | 'edit'; row: CrudRow | null } | null;

const compareText = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });

/**
 * The entity whose row ids a cell holds, when the row carries no label of its own (`_dictText`) for them: an id means
 * nothing to a reader (a picked user name, `valueField`, does and stays as it is).
 */
function referenceOf(entity: EntityDeclaration, name: string, row: CrudRow): { entityName: string; labelField: string } | null {
  const field = entity.fields[name];
  if (field?.widget.kind !== 'entitySelect' || field.widget.valueField || field.link || typeof row[`${name}_dictText`] === 'string') return null;
  return { entityName: field.widget.entity, labelField: field.widget.labelField };
}

/** A long text cut at 25 characters with an ellipsis (SPEC section 9), the whole of it shown on hover. */
function CutText({ text }: { text: string }) {
  const cut = ellipsis(text);
  return cut === text ? text : <span title={text}>{cut}</span>;
}

/** The list-and-form screen of an entity declaration: search, table, toolbar, modal form, details, recycle bin. */
export function CrudScreen({ entity, extension, fixed, embedded = false }: CrudScreenProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const can = useCrudPermissions(entity);
  const [state, setState] = useState<ListState>({ pageNo: 1, pageSize: 10, sort: null, filters: {}, superQuery: null, fixed });
  const [selected, setSelected] = useState<string[]>([]);
  const [formState, setFormState] = useState<FormState>(null);
  const [detailRow, setDetailRow] = useState<CrudRow | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [superQueryOpen, setSuperQueryOpen] = useState(false);
  const [recycleBinOpen, setRecycleBinOpen] = useState(false);

  // A tree shows its whole shape until a search narrows it; matching rows are then listed flat, paged by the server.
  const asTree = Boolean(entity.tree) && !isFiltered(entity, state) && !fixed;
  const params = listParams(entity, state);
  const list = useEntityList(entity, params, !asTree && can.list);
  const tree = useTreeList(entity, asTree && can.list);
  const source = asTree ? tree : list;
  const rows: CrudRow[] = asTree ? ((tree.data ?? []) as CrudRow[]) : (list.data?.records ?? []);

  const removeOne = useDeleteEntity(entity);
  const removeMany = useDeleteEntityBatch(entity);
  const exporter = useExportEntities(entity);
  useLiveColumn(entity);
  useReloadOn(entity);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: crudKeys.all(entity) });
  // SPEC section 8's 'Delete failed!', then why
  const failDelete = (error: unknown) => void message.error([t('crud.deleteFailed'), error instanceof Error ? error.message : ''].filter(Boolean).join(' '));
  const searchFields = Object.entries(entity.search).filter(([name]) => !(fixed && name in fixed));

  const applySearch = (values: Record<string, unknown>) => {
    setSelected([]);
    const next: ListState = { ...state, pageNo: 1, filters: values };
    setState(next);
    // searching again for the same thing asks the server again: rows may have changed since
    if (JSON.stringify(listParams(entity, next)) === JSON.stringify(params)) void source.refetch();
  };
  const resetSearch = () => {
    setSelected([]);
    setState((s) => ({ ...s, pageNo: 1, filters: {}, superQuery: null }));
  };

  const deleteRow = async (row: CrudRow) => {
    try {
      const envelope = await removeOne.mutateAsync(row.id);
      void message.success(envelope.message);
      setSelected((keys) => keys.filter((k) => k !== row.id));
    } catch (error) {
      failDelete(error);
    }
  };

  const deleteSelected = () => {
    // SPEC section 5: batch operations require a selected record.
    if (selected.length === 0) {
      void message.warning(t('crud.selectRecord'));
      return;
    }
    modal.confirm({
      title: t('crud.batchDeleteConfirm', { count: selected.length }),
      content: entity.deleteWarning ? t(entity.deleteWarning) : undefined,
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const envelope = await removeMany.mutateAsync(selected);
          void message.success(envelope.message);
          setSelected([]);
        } catch (error) {
          failDelete(error);
        }
      },
    });
  };

  const exportRows = async () => {
    try {
      await exporter.mutateAsync(exportParams(entity, state));
      void message.success(t('crud.exported'));
    } catch {
      // the request layer has shown why
    }
  };

  const columns: CrudColumn[] = entity.columns.map((name) => ({
    key: name,
    title: t(fieldLabelKey(entity, name)),
    render: (row) =>
      entity.live?.field === name && entity.live.badges ? (
        <Badge status={entity.live.badges[String(row[name])] ?? 'default'} text={displayValue(entity, name, row, t)} />
      ) : referenceOf(entity, name, row) ? (
        <EntityLabel {...referenceOf(entity, name, row)!} value={row[name]} />
      ) : entity.fields[name]?.widget.kind === 'icon' && row[name] ? (
        <Space size={6}>
          <IconByName name={String(row[name])} />
          {displayValue(entity, name, row, t)}
        </Space>
      ) : isFreeText(entity, name) ? (
        <CutText text={displayValue(entity, name, row, t)} />
      ) : (
        displayValue(entity, name, row, t)
      ),
    sortable: entity.sortable.includes(name),
    compare: asTree ? (a, b) => compareText(displayValue(entity, name, a, t), displayValue(entity, name, b, t)) : undefined,
    width: columnWidth(entity, name),
    ellipsis: entity.fields[name]?.kind === 'json' || entity.fields[name]?.widget.kind === 'textarea',
    phoneRank: entity.phoneColumns?.includes(name) ? entity.phoneColumns.indexOf(name) : undefined,
    term: Boolean(entity.fields[name]?.dict) || entity.fields[name]?.widget.kind === 'options' || entity.fields[name]?.widget.kind === 'switch',
  }));
  const RowActions = extension?.RowActions;
  const Title = extension?.Title;
  columns.push({
    key: '__actions',
    title: t('crud.actions'),
    fixedRight: true,
    render: (row) => (
      <Space size={0} wrap>
        {can.edit ? (
          <Button type="link" size="small" onClick={() => setFormState({ mode: 'edit', row })}>
            {t('crud.edit')}
          </Button>
        ) : null}
        <Button type="link" size="small" onClick={() => setDetailRow(row)}>
          {t('crud.detail')}
        </Button>
        {can.delete ? (
          <Popconfirm
            title={t('crud.deleteConfirm', { name: String(row[entity.labelField] ?? row.id) })}
            description={entity.deleteWarning ? t(entity.deleteWarning) : undefined}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => deleteRow(row)}
          >
            <Button type="link" size="small" danger>
              {t('crud.delete')}
            </Button>
          </Popconfirm>
        ) : null}
        {entity.rowCommands?.map((command) => <RowCommandButton key={command.name} entity={entity} command={command} row={row} onDone={refresh} />)}
        {RowActions ? <RowActions entity={entity} row={row} refresh={refresh} /> : null}
      </Space>
    ),
  });

  const Toolbar = extension?.Toolbar;
  const activeConditions = state.superQuery?.conditions.length ?? 0;
  const toolbar = (
    <Flex wrap gap={8} justify="space-between" align="center" style={{ marginBottom: 12 }} role="toolbar" aria-label={t(entity.title)}>
      <ToolbarFold>
        {can.add ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setFormState({ mode: 'add', row: null })}>
            {t('crud.add')}
          </Button>
        ) : null}
        {can.delete ? (
          <Button icon={<DeleteOutlined />} onClick={deleteSelected}>
            {t('crud.batchDelete')}
          </Button>
        ) : null}
        {can.export ? (
          <Button icon={<DownloadOutlined />} loading={exporter.isPending} onClick={() => void exportRows()}>
            {t('crud.export')}
          </Button>
        ) : null}
        {can.import ? <ImportButton entity={entity} onReport={setReport} /> : null}
        <Button icon={<FilterOutlined />} type={activeConditions > 0 ? 'primary' : 'default'} ghost={activeConditions > 0} onClick={() => setSuperQueryOpen(true)}>
          {activeConditions > 0 ? t('crud.superQueryActive', { count: activeConditions }) : t('crud.superQuery')}
        </Button>
        {can.recycleBin && entity.softDelete?.recycleBin ? (
          <Button icon={<RestOutlined />} onClick={() => setRecycleBinOpen(true)}>
            {t('crud.recycleBin')}
          </Button>
        ) : null}
        {Toolbar ? <Toolbar entity={entity} refresh={refresh} selected={selected} clearSelection={() => setSelected([])} conditions={{ ...state.filters, ...fixed }} /> : null}
      </ToolbarFold>
      {selected.length > 0 ? (
        <Space>
          <span>{t('crud.selected', { count: selected.length })}</span>
          <Button type="link" size="small" onClick={() => setSelected([])}>
            {t('crud.clearSelection')}
          </Button>
        </Space>
      ) : null}
    </Flex>
  );

  const searchBar =
    searchFields.length > 0 ? (
      <SearchBar<Record<string, unknown>>
        name={`${entity.name}-search`}
        fields={searchFields.map(([name, match]) => ({
          name,
          label: t(fieldLabelKey(entity, name)),
          control: <SearchControl entity={entity} name={name} match={match} />,
        }))}
        onSearch={applySearch}
        onReset={resetSearch}
      />
    ) : null;

  const table =
    source.isError && !source.data ? (
      <LoadFailed onRetry={() => void source.refetch()} />
    ) : (
      <CrudTable
        ariaLabel={t(entity.title)}
        columns={columns}
        rows={rows}
        loading={source.isFetching}
        pagination={asTree ? { current: state.pageNo, pageSize: state.pageSize } : { current: state.pageNo, pageSize: state.pageSize, total: list.data?.total ?? 0 }}
        sort={state.sort ?? null}
        onChange={({ current, pageSize, sort }) => {
          const sortChanged = (sort?.field ?? '') !== (state.sort?.field ?? '') || (sort?.order ?? '') !== (state.sort?.order ?? '');
          setState((s) => ({ ...s, pageNo: sortChanged || pageSize !== s.pageSize ? 1 : current, pageSize, sort: sort as { field: string; order: SortOrder } | null }));
        }}
        selection={can.delete || extension?.batch ? { keys: selected, onChange: (keys) => setSelected(keys) } : undefined}
      />
    );

  const dialogs = (
    <>
      {formState ? <EntityFormModal entity={entity} mode={formState.mode} row={formState.row} fixed={fixed} addons={extension?.FormAddons} onClose={() => setFormState(null)} /> : null}
      {detailRow ? <DetailDrawer entity={entity} row={detailRow} onClose={() => setDetailRow(null)} /> : null}
      {report ? <ImportReportModal entity={entity} report={report} onClose={() => setReport(null)} /> : null}
      {superQueryOpen ? (
        <SuperQueryModal
          entity={entity}
          value={state.superQuery ?? null}
          onClose={() => setSuperQueryOpen(false)}
          onApply={(superQuery: SuperQuery | null) => {
            setSuperQueryOpen(false);
            setSelected([]);
            setState((s) => ({ ...s, pageNo: 1, superQuery }));
          }}
        />
      ) : null}
      {recycleBinOpen ? <RecycleBinModal entity={entity} onClose={() => setRecycleBinOpen(false)} /> : null}
    </>
  );

  if (embedded) {
    return (
      <RowStateProvider>
        <div>
          {searchBar}
          {toolbar}
          {table}
          {dialogs}
        </div>
      </RowStateProvider>
    );
  }
  return (
    <Authorized code={permissionCode(entity, 'list')} fallback={<Result status="403" title={t('request.accessDenied')} />}>
      <RowStateProvider>
        <Flex vertical gap={16}>
          {searchBar ? <Card variant="borderless">{searchBar}</Card> : null}
          <Card variant="borderless" title={Title ? <Title entity={entity} refresh={refresh} conditions={{ ...state.filters, ...fixed }} /> : t(entity.title)}>
            {toolbar}
            {table}
          </Card>
        </Flex>
        {dialogs}
      </RowStateProvider>
    </Authorized>
  );
}
