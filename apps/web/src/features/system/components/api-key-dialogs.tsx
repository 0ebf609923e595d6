import { API_KEY_MAX_LIFETIME_DAYS, API_KEY_NAME_MAX, type ApiKeyAddBody, type ApiKeyCreated } from '@isps/contract';
import { Alert, App, DatePicker, Form, Input, Modal, Select, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../shared/session/index.ts';
import { toWire } from '../../../shared/time/index.ts';
import { useAddApiKey, useKeyTenants } from '../api/api-keys.ts';

/**
 * The codes the signed-in user holds, as a tree of areas, screens and buttons: a key is given only codes its creator
 * holds (the server refuses any other), so nothing else is offered.
 */
export function useHeldCodeTree(): DataNode[] {
  const { t, i18n } = useTranslation();
  const auth = useSession((s) => s.auth);
  return useMemo(() => {
    const areas = new Map<string, Map<string, string[]>>();
    for (const code of [...new Set(auth.map((a) => a.action))].sort()) {
      const [area = code, screen = '', ...rest] = code.split(':');
      if (rest.length === 0) continue;
      const screens = areas.get(area) ?? new Map<string, string[]>();
      screens.set(screen, [...(screens.get(screen) ?? []), code]);
      areas.set(area, screens);
    }
    const title = (key: string, fallback: string) => (i18n.exists(key) ? t(key) : fallback);
    return [...areas].map(([area, screens]) => ({
      key: `area:${area}`,
      title: title(`menu.${area}`, area),
      children: [...screens].map(([screen, codes]) => ({
        key: `screen:${area}:${screen}`,
        title: title(`menu.${area}.${screen}`, `${area}:${screen}`),
        children: codes.map((code) => ({ key: code, title: <span title={code}>{title(`role.button.${code.split(':').pop() ?? ''}`, code)}</span>, isLeaf: true })),
      })),
    }));
  }, [auth, t, i18n]);
}

/** The key itself, shown this once after it is made or rotated: the server keeps only its hash. */
export function ApiKeySecretModal({ created, onClose }: { created: ApiKeyCreated | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={created !== null} title={t('apiKey.secretTitle', { name: created?.name ?? '' })} onOk={onClose} onCancel={onClose} okText={t('apiKey.secretDone')} cancelButtonProps={{ style: { display: 'none' } }} mask={{ closable: false }} destroyOnHidden>
      <Alert type="warning" showIcon title={t('apiKey.secretOnce')} style={{ marginBottom: 16 }} />
      {created && (
        <Typography.Paragraph copyable={{ text: created.secret }} code data-testid="api-key-secret">
          {created.secret}
        </Typography.Paragraph>
      )}
      <Typography.Text type="secondary">{t('apiKey.secretHeader')}</Typography.Text>
    </Modal>
  );
}

interface FormValues {
  name: string;
  tenantId: string;
  expiresAt: Dayjs;
}

/** Makes a key: a name, a tenant the caller may give, an expiry within two years and some of the caller's codes. */
export function ApiKeyCreateDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (created: ApiKeyCreated) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [codes, setCodes] = useState<string[]>([]);
  const tree = useHeldCodeTree();
  const tenants = useKeyTenants();
  const add = useAddApiKey();
  const latest = dayjs().add(API_KEY_MAX_LIFETIME_DAYS - 1, 'day');
  const onlyTenant = tenants.data?.length === 1 ? tenants.data[0]?.id : undefined;
  // one tenant to choose from (everyone but a system administrator): it is chosen
  useEffect(() => {
    if (open && onlyTenant && !form.getFieldValue('tenantId')) form.setFieldValue('tenantId', onlyTenant);
  }, [open, onlyTenant, form]);

  const submit = async () => {
    const values = await form.validateFields();
    if (codes.length === 0) {
      void message.error(t('apiKey.codesRequired'));
      return;
    }
    const body: ApiKeyAddBody = { name: values.name.trim(), tenantId: values.tenantId, permCodes: codes, expiresAt: toWire(values.expiresAt) };
    try {
      const envelope = await add.mutateAsync(body);
      const created = envelope.result as ApiKeyCreated;
      form.resetFields();
      setCodes([]);
      onCreated(created);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : t('request.failed'));
    }
  };

  return (
    <Modal open={open} title={t('apiKey.create')} onOk={() => void submit()} onCancel={onClose} confirmLoading={add.isPending} okText={t('apiKey.createOk')} destroyOnHidden width={640}>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ expiresAt: dayjs().add(90, 'day').endOf('day'), tenantId: onlyTenant }}
        preserve={false}
      >
        <Form.Item name="name" label={t('apiKey.field.name')} rules={[{ required: true, whitespace: true, message: t('apiKey.nameRequired') }, { max: API_KEY_NAME_MAX }]}>
          <Input maxLength={API_KEY_NAME_MAX} placeholder={t('apiKey.namePlaceholder')} />
        </Form.Item>
        <Form.Item name="tenantId" label={t('apiKey.field.tenant')} rules={[{ required: true, message: t('apiKey.tenantRequired') }]}>
          <Select loading={tenants.isLoading} options={(tenants.data ?? []).map((tenant) => ({ value: tenant.id, label: tenant.name }))} />
        </Form.Item>
        <Form.Item name="expiresAt" label={t('apiKey.field.expiresAt')} rules={[{ required: true, message: t('apiKey.expiryRequired') }]} extra={t('apiKey.expiryHint', { days: API_KEY_MAX_LIFETIME_DAYS })}>
          <DatePicker showTime style={{ width: '100%' }} disabledDate={(day) => day.isBefore(dayjs(), 'day') || day.isAfter(latest, 'day')} onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()} />
        </Form.Item>
        <Form.Item label={t('apiKey.field.permissions')} required extra={t('apiKey.permissionsHint')}>
          <div style={{ maxHeight: 320, overflow: 'auto' }}>
            <Tree
              checkable
              selectable={false}
              treeData={tree}
              checkedKeys={codes}
              onCheck={(checked) => {
                const keys = (Array.isArray(checked) ? checked : checked.checked).map(String);
                setCodes(keys.filter((key) => !key.startsWith('area:') && !key.startsWith('screen:')));
              }}
            />
          </div>
        </Form.Item>
      </Form>
    </Modal>
  );
}
