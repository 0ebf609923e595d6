import { deviceEntity, SoftUpdatePerm } from '@isps/contract';
import { App, Button, Flex, Input, Modal, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayValue, fieldLabelKey, useRowState, type CrudRow } from '../../../shared/crud/index.ts';
import { Authorized } from '../../../shared/permission/index.ts';
import { usePushCandidates } from '../api/push-candidates.ts';
import { usePushSoftUpdate } from '../api/push-soft-update.ts';

const PICKER_COLUMNS = ['deviceName', 'sn', 'deviceModel', 'online'] as const;

/**
 * The device picker of a push: the devices of the package's model (every device when it names none), searched by
 * name, ticked across pages.
 */
function PushPackageModal({ row, onPushed, onClose }: { row: CrudRow; onPushed: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const push = usePushSoftUpdate();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const [selected, setSelected] = useState<string[]>([]);
  const model = typeof row.deviceModel === 'string' && row.deviceModel !== '' ? row.deviceModel : null;
  const list = usePushCandidates({ pageNo: page.current, pageSize: page.pageSize, keyword, model });
  const version = String(row.version ?? '');

  const submit = async () => {
    try {
      const envelope = await push.mutateAsync({ id: row.id, deviceIds: selected });
      if (!envelope.success) return void message.error(envelope.message);
      void message.success(envelope.message);
      onPushed();
    } catch {
      // the request layer has shown why
    }
  };

  return (
    <Modal
      open
      width={880}
      title={t('softUpdate.pushTitle', { version })}
      okText={t('softUpdate.push')}
      cancelText={t('common.cancel')}
      confirmLoading={push.isPending}
      okButtonProps={{ disabled: selected.length === 0 }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{model ? t('softUpdate.devicesOfModel', { model }) : t('softUpdate.devicesOfAnyModel')}</Typography.Text>
        <Input.Search
          aria-label={t('softUpdate.searchDevices')}
          placeholder={t('softUpdate.searchDevices')}
          allowClear
          onSearch={(value) => {
            setKeyword(value.trim());
            setPage((p) => ({ ...p, current: 1 }));
          }}
        />
        <Table<CrudRow>
          aria-label={t('softUpdate.pushTitle', { version })}
          rowKey="id"
          size="small"
          scroll={{ x: true }}
          loading={list.isFetching}
          dataSource={list.data?.records ?? []}
          columns={PICKER_COLUMNS.map((name) => ({ key: name, title: t(fieldLabelKey(deviceEntity, name)), render: (_: unknown, device: CrudRow) => displayValue(deviceEntity, name, device, t) }))}
          rowSelection={{ selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys.map(String)) }}
          pagination={{
            current: page.current,
            pageSize: page.pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50, 100],
            size: 'small',
            onChange: (current, pageSize) => setPage({ current: pageSize === page.pageSize ? current : 1, pageSize }),
          }}
        />
        <Typography.Text data-testid="soft-update-chosen">{t('softUpdate.chosenDevices', { count: selected.length })}</Typography.Text>
      </Flex>
    </Modal>
  );
}

/** A package row's push (device:softUpdate:push): pick devices, queue one command each, then follow the progress. */
export function PushPackageAction({ row, onPushed }: { row: CrudRow; onPushed: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useRowState(row.id, 'push', false);
  return (
    <Authorized code={SoftUpdatePerm.push}>
      <Button type="link" size="small" data-command="push" onClick={() => setOpen(true)}>
        {t('softUpdate.push')}
      </Button>
      {open ? (
        <PushPackageModal
          row={row}
          onClose={() => setOpen(false)}
          onPushed={() => {
            setOpen(false);
            onPushed();
          }}
        />
      ) : null}
    </Authorized>
  );
}
