import { API_KEY_DEFAULT_OVERLAP_HOURS, ApiKeyPerm, type ApiKeyCreated, type ApiKeyRow, type ApiKeyStatus } from '@isps/contract';
import { App, Button, Card, Flex, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermissionCheck } from '../../../shared/permission/index.ts';
import { useApiKeys, useDeleteApiKey, useRevokeApiKey, useRotateApiKey } from '../api/api-keys.ts';
import { ApiKeyCreateDialog, ApiKeySecretModal } from '../components/api-key-dialogs.tsx';

const STATUS_COLORS: Record<ApiKeyStatus, string> = { active: 'green', overlap: 'gold', superseded: 'default', revoked: 'red', expired: 'default' };

/** API keys of integrations (issue 32): list with last use, create (the key shown once), rotate, revoke, delete. */
export default function ApiKeyPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = usePermissionCheck();
  const [page, setPage] = useState({ current: 1, size: 10 });
  const keys = useApiKeys(page.current, page.size);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<ApiKeyCreated | null>(null);
  const rotate = useRotateApiKey();
  const revoke = useRevokeApiKey();
  const remove = useDeleteApiKey();

  const run = async (call: () => Promise<{ message: string; result: unknown }>, showSecret = false) => {
    try {
      const envelope = await call();
      void message.success(envelope.message);
      if (showSecret) setShown(envelope.result as ApiKeyCreated);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : t('request.failed'));
    }
  };

  const columns: ColumnsType<ApiKeyRow> = [
    { title: t('apiKey.field.name'), dataIndex: 'name', render: (name: string, row) => <Space orientation="vertical" size={0}><span>{name}</span><Typography.Text type="secondary" code>{row.prefix}</Typography.Text></Space> },
    { title: t('apiKey.field.tenant'), dataIndex: 'tenantName', render: (name: string | null, row) => name ?? row.tenantId },
    { title: t('apiKey.field.permCount'), dataIndex: 'permCount', render: (count: number, row) => <span title={row.permCodes.join('\n')}>{count}</span> },
    { title: t('apiKey.field.expiresAt'), dataIndex: 'expiresAt' },
    { title: t('apiKey.field.lastUsedAt'), dataIndex: 'lastUsedAt', render: (at: string | null) => at ?? t('apiKey.neverUsed') },
    { title: t('apiKey.field.lastUsedIp'), dataIndex: 'lastUsedIp', render: (ip: string | null) => ip ?? '' },
    {
      title: t('apiKey.field.status'),
      dataIndex: 'status',
      render: (status: ApiKeyStatus, row) => (
        <Tag color={STATUS_COLORS[status]} title={row.validUntil ? t('apiKey.validUntil', { time: row.validUntil }) : undefined}>
          {t(`apiKey.status.${status}`)}
        </Tag>
      ),
    },
    {
      title: t('crud.actions'),
      key: 'actions',
      render: (_value, row) => (
        <Space size="small" wrap>
          {can(ApiKeyPerm.rotate) && row.status === 'active' && (
            <Popconfirm title={t('apiKey.rotateConfirm', { hours: API_KEY_DEFAULT_OVERLAP_HOURS })} onConfirm={() => run(() => rotate.mutateAsync({ id: row.id, overlapHours: API_KEY_DEFAULT_OVERLAP_HOURS }), true)}>
              <Button type="link" size="small">{t('apiKey.rotate')}</Button>
            </Popconfirm>
          )}
          {can(ApiKeyPerm.revoke) && (row.status === 'active' || row.status === 'overlap') && (
            <Popconfirm title={t('apiKey.revokeConfirm')} onConfirm={() => run(() => revoke.mutateAsync(row.id))}>
              <Button type="link" size="small" danger>{t('apiKey.revoke')}</Button>
            </Popconfirm>
          )}
          {can(ApiKeyPerm.delete) && (
            <Popconfirm title={t('apiKey.deleteConfirm')} onConfirm={() => run(() => remove.mutateAsync(row.id))}>
              <Button type="link" size="small" danger>{t('crud.delete')}</Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card>
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">{t('apiKey.intro')}</Typography.Text>
        {can(ApiKeyPerm.add) && (
          <Button type="primary" onClick={() => setCreating(true)}>
            {t('apiKey.create')}
          </Button>
        )}
      </Flex>
      <Table<ApiKeyRow>
        rowKey="id"
        size="middle"
        loading={keys.isLoading}
        columns={columns}
        dataSource={keys.data?.records ?? []}
        pagination={{ current: page.current, pageSize: page.size, total: keys.data?.total ?? 0, onChange: (current, size) => setPage({ current, size }) }}
        scroll={{ x: 'max-content' }}
      />
      <ApiKeyCreateDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(created) => {
          setCreating(false);
          setShown(created);
        }}
      />
      <ApiKeySecretModal created={shown} onClose={() => setShown(null)} />
    </Card>
  );
}
