import { detailShape, type EntityDeclaration } from '@isps/contract';
import { Descriptions, Drawer, Empty, Spin, Table, Tabs } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDrawerSize } from '../ui/index.ts';
import { useDetailLines } from './api/detail-lines.ts';
import { useEntityById } from './api/query-entity-by-id.ts';
import { CheckRulesView } from './check-rules-editor.tsx';
import { displayValue, fieldLabelKey, type CrudRow } from './entity-fields.ts';

/** The fields a detail view shows: the list columns, the detail-only fields, then the audit fields. */
export function detailFieldsOf(entity: EntityDeclaration): string[] {
  const names = [...entity.columns, ...(entity.detailFields ?? []), 'createBy', 'createTime', 'updateBy', 'updateTime'];
  return [...new Set(names)].filter((name) => !entity.fields[name]?.writeOnly);
}

/** One row read-only, fresh from the server. */
export function DetailDrawer({ entity, row, onClose }: { entity: EntityDeclaration; row: CrudRow; onClose: () => void }) {
  const { t } = useTranslation();
  const fresh = useEntityById(entity, row.id);
  const shown = fresh.data ?? row;
  const drawerSize = useDrawerSize();
  return (
    <Drawer open title={t('crud.detailTitle', { entity: t(entity.title) })} onClose={onClose} size={drawerSize} destroyOnHidden>
      <Spin spinning={fresh.isFetching && !fresh.data}>
        <Descriptions
          column={1}
          bordered
          size="small"
          items={detailFieldsOf(entity).map((name) => {
            const json = entity.fields[name]?.kind === 'json';
            const text = displayValue(entity, name, shown, t);
            let children: ReactNode = text;
            if (entity.fields[name]?.widget.kind === 'checkRules') {
              children = (
                <>
                  <div style={{ marginBottom: 8 }}>{text}</div>
                  <CheckRulesView value={shown[name]} />
                </>
              );
            } else if (json) children = <pre style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{prettyJson(text)}</pre>;
            return { key: name, label: t(fieldLabelKey(entity, name)), children };
          })}
        />
        {entity.details?.length ? <DetailLinesView entity={entity} id={row.id} /> : null}
      </Spin>
    </Drawer>
  );
}

/** The row's lines of each detail, read-only: a tab per detail, a small table of its lines. */
function DetailLinesView({ entity, id }: { entity: EntityDeclaration; id: string }) {
  const { t } = useTranslation();
  const lines = useDetailLines(entity, id);
  return (
    <Tabs
      style={{ marginTop: 16 }}
      items={(entity.details ?? []).map((detail) => {
        const shape = detailShape(entity, detail);
        const rows = lines.data?.[detail.name] ?? [];
        return {
          key: detail.name,
          label: `${t(detail.title)} (${rows.length})`,
          children: (
            <Table<CrudRow>
              size="small"
              rowKey="id"
              loading={lines.isFetching && !lines.data}
              pagination={false}
              scroll={{ x: 'max-content' }}
              dataSource={rows}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('crud.noLines')} /> }}
              columns={[
                { key: '__no', title: t('crud.lineNumber'), width: 56, render: (_: unknown, _row: CrudRow, index: number) => index + 1 },
                ...detail.columns.map((name) => ({ key: name, title: t(detail.fields[name]?.label ?? name), render: (_: unknown, line: CrudRow) => displayValue(shape, name, line, t) })),
              ]}
            />
          ),
        };
      })}
    />
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
