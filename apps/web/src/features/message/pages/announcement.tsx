import { PlusOutlined } from '@ant-design/icons';
import { AnnouncementPerm, PriorityColor, SendStatus, type Announcement } from '@isps/contract';
import { App, Badge, Button, Card, Flex, Grid, Input, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchBar, usePager } from '../../../shared/crud/index.ts';
import { translateTitle } from '../../../shared/i18n/index.ts';
import { usePermission } from '../../../shared/permission/index.ts';
import {
  deleteAnnouncement,
  releaseAnnouncement,
  revokeAnnouncement,
  useAnnouncementAction,
  useAnnouncements,
  type AnnouncementFilter,
} from '../api/announcement-authoring.ts';
import { AnnouncementDetailModal } from '../components/announcement-detail-modal.tsx';
import { TIME_COLUMN_WIDTH, formatTime } from '../components/format-time.ts';
import { AnnouncementFormModal } from '../components/announcement-form-modal.tsx';

const validityBadge = { unspecified: 'default', inEffect: 'processing', expired: 'error' } as const;
const statusBadge = { [SendStatus.draft]: 'default', [SendStatus.released]: 'success', [SendStatus.revoked]: 'warning' } as const;

/** system/announcement: write, release, revoke and delete announcements. */
export default function AnnouncementPage() {
  const { t } = useTranslation();
  // on a phone a right-fixed actions column would cover the titles: it scrolls with the rest of the table there
  const wide = Grid.useBreakpoint().md !== false;
  const { modal, message } = App.useApp();
  const [filter, setFilter] = useState<AnnouncementFilter>({ pageNo: 1, pageSize: 10 });
  const [editing, setEditing] = useState<{ row: Announcement | null } | null>(null);
  const [viewing, setViewing] = useState<Announcement | null>(null);
  const list = useAnnouncements(filter);
  const can = {
    add: usePermission(AnnouncementPerm.add),
    edit: usePermission(AnnouncementPerm.edit),
    delete: usePermission(AnnouncementPerm.delete),
    release: usePermission(AnnouncementPerm.release),
    revoke: usePermission(AnnouncementPerm.revoke),
  };
  const release = useAnnouncementAction(releaseAnnouncement);
  const revoke = useAnnouncementAction(revokeAnnouncement);
  const remove = useAnnouncementAction(deleteAnnouncement);

  const confirm = (title: string, run: () => Promise<string>, danger = false) =>
    modal.confirm({
      title,
      okButtonProps: { danger },
      onOk: async () => {
        try {
          void message.success(await run());
        } catch (error) {
          void message.error(error instanceof Error ? error.message : t('request.failed'));
        }
      },
    });

  const columns: ColumnsType<Announcement> = [
    { title: t('announcement.field.titile'), dataIndex: 'titile', ellipsis: true },
    { title: t('announcement.field.msgCategory'), dataIndex: 'msgCategory', width: 130, render: (v: string) => t(`notices.category.${v === '2' ? '2' : '1'}`) },
    {
      title: t('announcement.field.priority'),
      dataIndex: 'priority',
      width: 100,
      render: (v: Announcement['priority']) => <Tag color={PriorityColor[v]}>{t(`notices.priority.${v}`)}</Tag>,
    },
    { title: t('announcement.field.msgType'), dataIndex: 'msgType', width: 120, render: (v: string) => t(`announcement.msgType.${v === 'USER' ? 'USER' : 'ALL'}`) },
    {
      title: t('announcement.status'),
      dataIndex: 'sendStatus',
      width: 110,
      render: (v: Announcement['sendStatus']) => <Badge status={statusBadge[v] ?? 'default'} text={t(`announcement.status.${v}`)} />,
    },
    {
      title: t('announcement.validity'),
      dataIndex: 'validity',
      width: 110,
      render: (v: Announcement['validity']) => (v ? <Badge status={validityBadge[v]} text={t(`announcement.validity.${v}`)} /> : null),
    },
    { title: t('notices.sender'), dataIndex: 'sender', width: 120 },
    { title: t('notices.sendTime'), dataIndex: 'sendTime', width: TIME_COLUMN_WIDTH, render: (v: string | null) => formatTime(v) },
    {
      title: t('crud.actions'),
      key: 'actions',
      width: 240,
      fixed: wide ? 'right' : undefined,
      render: (_: unknown, row) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setViewing(row)}>
            {t('crud.detail')}
          </Button>
          {can.edit && row.sendStatus !== SendStatus.released && (
            <Button type="link" size="small" onClick={() => setEditing({ row })}>
              {t('crud.edit')}
            </Button>
          )}
          {can.release && row.sendStatus !== SendStatus.released && (
            <Button type="link" size="small" onClick={() => confirm(t('announcement.releaseConfirm', { name: row.titile }), () => release.mutateAsync(row.id))}>
              {t('announcement.release')}
            </Button>
          )}
          {can.revoke && row.sendStatus === SendStatus.released && (
            <Button type="link" size="small" onClick={() => confirm(t('announcement.revokeConfirm', { name: row.titile }), () => revoke.mutateAsync(row.id), true)}>
              {t('announcement.revoke')}
            </Button>
          )}
          {can.delete && (
            <Button type="link" size="small" danger onClick={() => confirm(t('crud.deleteConfirm', { name: row.titile }), () => remove.mutateAsync(row.id), true)}>
              {t('crud.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const pager = usePager(filter, list.data?.total, (pageNo, pageSize) => setFilter((f) => ({ ...f, pageNo, pageSize })));

  return (
    <Flex vertical gap={16}>
      <Card variant="borderless">
        <SearchBar<{ titile?: string; sendStatus?: AnnouncementFilter['sendStatus'] }>
          name="announcement-search"
          fields={[
            { name: 'titile', label: t('announcement.field.titile'), control: <Input allowClear /> },
            {
              name: 'sendStatus',
              label: t('announcement.status'),
              control: <Select allowClear placeholder={t('crud.select')} options={[SendStatus.draft, SendStatus.released, SendStatus.revoked].map((v) => ({ value: v, label: t(`announcement.status.${v}`) }))} />,
            },
          ]}
          onSearch={(values) => setFilter((f) => ({ ...f, pageNo: 1, titile: values.titile?.trim() || undefined, sendStatus: values.sendStatus }))}
          onReset={() => setFilter((f) => ({ pageNo: 1, pageSize: f.pageSize }))}
        />
      </Card>
      <Card variant="borderless" title={translateTitle('menu.system.announcement')}>
        {can.add && (
          <Flex wrap gap={8} style={{ marginBottom: 12 }}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ row: null })}>
              {t('crud.add')}
            </Button>
          </Flex>
        )}
        <Table<Announcement>
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          columns={columns}
          dataSource={list.data?.records ?? []}
          scroll={{ x: 1100 }}
          pagination={pager}
        />
      </Card>
      <AnnouncementFormModal open={!!editing} row={editing?.row ?? null} onClose={() => setEditing(null)} />
      <AnnouncementDetailModal notice={viewing} onClose={() => setViewing(null)} />
    </Flex>
  );
}
