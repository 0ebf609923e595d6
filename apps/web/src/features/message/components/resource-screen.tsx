import type { Page } from '@isps/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Form, Grid, Modal, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchBar, usePager, type SearchField } from '../../../shared/crud/index.ts';
import { usePermission } from '../../../shared/permission/index.ts';
import { useResourceAction } from '../api/message-center.ts';

type Params = Record<string, string | number | undefined>;

export interface Resource<T> {
  key: string;
  list: (params: Params) => Promise<Page<T>>;
  save: (input: Partial<T> & { id?: string }) => Promise<string>;
  remove: (id: string) => Promise<string>;
}

interface ResourceScreenProps<T extends { id: string }> {
  resource: Resource<T>;
  /** the list's name, the card's title like every other list's */
  title: string;
  entityLabel: string;
  /** shown in the delete confirmation */
  nameOf: (row: T) => string;
  columns: ColumnsType<T>;
  /** the search bar's conditions */
  filters: SearchField[];
  /** form items (Form.Item) of the add / edit dialog */
  formItems: ReactNode;
  defaults: Partial<T>;
  perms: { add: string; edit: string; delete: string };
  /** extra row actions (a test-send, for one) */
  rowActions?: (row: T) => ReactNode;
  /** the actions column's width: room for edit and delete unless told */
  actionsWidth?: number;
}

/** The width of the message center's dialogs: the spec's 60% on a desktop, the whole width on a phone. */
export const DIALOG_WIDTH = { xs: '100%', md: '80%', xl: '60%' };

/** The message center's list + dialog screens: paged table, search, add, edit and confirmed delete. */
export function ResourceScreen<T extends { id: string }>(props: ResourceScreenProps<T>) {
  const { resource, title, entityLabel, nameOf, columns, filters, formItems, defaults, perms, rowActions, actionsWidth = 140 } = props;
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [params, setParams] = useState<Params>({ pageNo: 1, pageSize: 10 });
  const [editing, setEditing] = useState<{ row: T | null } | null>(null);
  const [form] = Form.useForm();
  const list = useQuery({ queryKey: [resource.key, params], queryFn: () => resource.list(params), placeholderData: keepPreviousData });
  const save = useResourceAction(resource.key, resource.save);
  const remove = useResourceAction(resource.key, resource.remove);
  const can = { add: usePermission(perms.add), edit: usePermission(perms.edit), delete: usePermission(perms.delete) };
  // on a phone a right-fixed actions column would cover most of the narrow table: it scrolls with the rest there
  const wide = Grid.useBreakpoint().md !== false;

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    form.setFieldsValue(editing.row ?? defaults);
  }, [editing, form, defaults]);

  const submit = async () => {
    const values = (await form.validateFields()) as Partial<T>;
    try {
      const answer = await save.mutateAsync(editing?.row ? { ...values, id: editing.row.id } : values);
      void message.success(answer || t('crud.save'));
      setEditing(null);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : t('request.failed'));
    }
  };

  const actionColumn: ColumnsType<T>[number] = {
    title: t('crud.actions'),
    key: 'actions',
    width: actionsWidth,
    fixed: wide ? 'right' : undefined,
    render: (_: unknown, row: T) => (
      <Space size={0} wrap>
        {can.edit && (
          <Button type="link" size="small" onClick={() => setEditing({ row })}>
            {t('crud.edit')}
          </Button>
        )}
        {rowActions?.(row)}
        {can.delete && (
          <Button
            type="link"
            size="small"
            danger
            onClick={() =>
              modal.confirm({
                title: t('crud.deleteConfirm', { name: nameOf(row) }),
                okButtonProps: { danger: true },
                onOk: async () => {
                  try {
                    void message.success(await remove.mutateAsync(row.id));
                  } catch (error) {
                    void message.error(error instanceof Error ? error.message : t('request.failed'));
                  }
                },
              })
            }
          >
            {t('crud.delete')}
          </Button>
        )}
      </Space>
    ),
  };

  const pager = usePager({ pageNo: Number(params.pageNo), pageSize: Number(params.pageSize) }, list.data?.total, (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })));

  return (
    <Flex vertical gap={16}>
      <Card variant="borderless">
        <SearchBar<Params>
          name={`${resource.key}-search`}
          fields={filters}
          onSearch={(values) =>
            setParams((p) => ({
              pageNo: 1,
              pageSize: p.pageSize,
              ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== '')),
            }))
          }
          onReset={() => setParams((p) => ({ pageNo: 1, pageSize: p.pageSize }))}
        />
      </Card>
      <Card variant="borderless" title={title}>
        {can.add && (
          <Flex wrap gap={8} style={{ marginBottom: 12 }}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ row: null })}>
              {t('crud.add')}
            </Button>
          </Flex>
        )}
        <Table<T>
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          columns={[...columns, actionColumn]}
          dataSource={list.data?.records ?? []}
          scroll={{ x: 1100 }}
          pagination={pager}
        />
      </Card>
      <Modal
        open={!!editing}
        width={DIALOG_WIDTH}
        title={t(editing?.row ? 'crud.editTitle' : 'crud.addTitle', { entity: entityLabel })}
        okText={t('crud.save')}
        cancelText={t('common.cancel')}
        confirmLoading={save.isPending}
        onOk={() => void submit().catch(() => undefined)}
        onCancel={() => setEditing(null)}
        forceRender
      >
        <Form form={form} name={`${resource.key}-form`} layout="vertical">
          {formItems}
        </Form>
      </Modal>
    </Flex>
  );
}
