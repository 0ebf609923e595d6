import { WebhookDeliveryStatus, permissionCode, type WebhookDeliveryRow } from '@isps/contract';
import { App, Button, Drawer, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRowState, type CrudExtension, type CrudExtensionProps, type CrudRow, type FormAddonProps } from '../../../shared/crud/index.ts';
import { usePermissionCheck } from '../../../shared/permission/index.ts';
import { formatTime } from '../../../shared/time/wire-time.ts';
import { useDrawerSize } from '../../../shared/ui/index.ts';
import { useResendWebhookDelivery, useWebhookDeliveries } from '../api/webhook-deliveries.ts';

const STATUS_COLORS: Record<string, string> = { delivered: 'success', failed: 'error', pending: 'default', sending: 'processing' };

/** A signing secret: 32 random bytes as hex, made in the browser. */
export function generateWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Beside the secret field: fills it with a generated secret and shows it this once, to be copied to the receiver. */
export function GenerateSecretButton({ name, form }: FormAddonProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const generate = () => {
    const secret = generateWebhookSecret();
    form.setFieldValue(name, secret);
    void form.validateFields([name]).catch(() => undefined);
    modal.info({
      title: t('webhook.secretShownOnce'),
      width: 560,
      content: (
        <Typography.Paragraph copyable={{ text: secret }} code style={{ wordBreak: 'break-all' }}>
          {secret}
        </Typography.Paragraph>
      ),
    });
  };
  return <Button onClick={generate}>{t('webhook.generateSecret')}</Button>;
}

function DeliveriesTable({ webhookId, canResend }: { webhookId: string; canResend: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [page, setPage] = useState({ pageNo: 1, pageSize: 10 });
  const deliveries = useWebhookDeliveries(webhookId, page.pageNo, page.pageSize);
  const resend = useResendWebhookDelivery();
  const columns: ColumnsType<WebhookDeliveryRow> = [
    { title: t('webhook.delivery.seq'), dataIndex: 'seq', width: 70 },
    { title: t('webhook.delivery.eventKind'), dataIndex: 'eventKind', render: (kind: string) => t(`webhook.event.${kind}`) },
    { title: t('webhook.delivery.status'), dataIndex: 'status', render: (status: string) => <Tag color={STATUS_COLORS[status]}>{t(`webhook.status.${status}`)}</Tag> },
    { title: t('webhook.delivery.attempts'), dataIndex: 'attempts', width: 90 },
    { title: t('webhook.delivery.lastStatus'), dataIndex: 'lastStatus', width: 100 },
    { title: t('webhook.delivery.lastError'), dataIndex: 'lastError', ellipsis: true },
    { title: t('webhook.delivery.nextAttemptTime'), dataIndex: 'nextAttemptTime', render: (value: unknown) => formatTime(value) },
    { title: t('webhook.delivery.deliveredTime'), dataIndex: 'deliveredTime', render: (value: unknown) => formatTime(value) },
    {
      title: '',
      key: 'actions',
      render: (_: unknown, row) =>
        canResend && (row.status === WebhookDeliveryStatus.failed || row.status === WebhookDeliveryStatus.delivered) ? (
          <Button
            type="link"
            size="small"
            loading={resend.isPending && resend.variables === row.id}
            onClick={() => resend.mutate(row.id, { onSuccess: (envelope) => void message.success(envelope.message), onError: (error) => void message.error(error.message) })}
          >
            {t('webhook.resend')}
          </Button>
        ) : null,
    },
  ];
  return (
    <Table<WebhookDeliveryRow>
      rowKey="id"
      size="small"
      loading={deliveries.isFetching}
      columns={columns}
      dataSource={deliveries.data?.records ?? []}
      scroll={{ x: 900 }}
      pagination={{ current: page.pageNo, pageSize: page.pageSize, total: deliveries.data?.total ?? 0, onChange: (pageNo, pageSize) => setPage({ pageNo, pageSize }) }}
    />
  );
}

/** A webhook's deliveries: status, attempts and last error of each, with "send again". */
function WebhookRowActions({ entity, row }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const can = usePermissionCheck();
  const size = useDrawerSize();
  const [open, setOpen] = useRowState(row.id, 'deliveries', false);
  return (
    <>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        {t('webhook.deliveries')}
      </Button>
      {open ? (
        <Drawer open title={t('webhook.deliveriesTitle', { name: String(row.name ?? '') })} size={size} onClose={() => setOpen(false)} destroyOnHidden>
          <DeliveriesTable webhookId={row.id} canResend={can(permissionCode(entity, 'resend'))} />
        </Drawer>
      ) : null}
    </>
  );
}

export const webhookExtension: CrudExtension = { RowActions: WebhookRowActions, FormAddons: { secret: GenerateSecretButton } };
