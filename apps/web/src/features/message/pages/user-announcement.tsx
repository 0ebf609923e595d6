import { PriorityColor, type UserNotice } from '@isps/contract';
import { App, Badge, Button, Card, Flex, Input, Segmented, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchBar, usePager } from '../../../shared/crud/index.ts';
import { useMyAnnouncements, type MyNoticeFilter } from '../api/get-my-announcements.ts';
import { useMarkRead } from '../api/mark-read.ts';
import { useReadAll } from '../api/read-all.ts';
import { AnnouncementDetailModal } from '../components/announcement-detail-modal.tsx';
import { TIME_COLUMN_WIDTH, formatTime } from '../components/format-time.ts';

type ReadFilter = 'all' | '0' | '1';

/** /isps/userAnnouncement: the signed-in user's announcements and messages, read and unread. */
export default function UserAnnouncementPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [filter, setFilter] = useState<MyNoticeFilter>({ pageNo: 1, pageSize: 10 });
  const [readFilter, setReadFilter] = useState<ReadFilter>('all');
  const [detail, setDetail] = useState<UserNotice | null>(null);
  const list = useMyAnnouncements(filter);
  const markRead = useMarkRead();
  const readAll = useReadAll();

  const open = (notice: UserNotice) => {
    setDetail(notice);
    if (notice.readFlag !== 1) markRead.mutate(notice.anntId ?? notice.id);
  };

  const columns: ColumnsType<UserNotice> = [
    { title: t('notices.title'), dataIndex: 'titile', ellipsis: true },
    { title: t('notices.category'), dataIndex: 'msgCategory', width: 140, render: (v: string) => t(`notices.category.${v === '2' ? '2' : '1'}`) },
    { title: t('notices.sender'), dataIndex: 'sender', width: 140 },
    { title: t('notices.sendTime'), dataIndex: 'sendTime', width: TIME_COLUMN_WIDTH, render: (v: string | null) => formatTime(v) },
    {
      title: t('notices.priority'),
      dataIndex: 'priority',
      width: 110,
      render: (v: UserNotice['priority']) => <Tag color={PriorityColor[v]}>{t(`notices.priority.${v}`)}</Tag>,
    },
    {
      title: t('notices.readFlag'),
      dataIndex: 'readFlag',
      width: 110,
      render: (v: 0 | 1) => <Badge status={v === 1 ? 'default' : 'processing'} text={t(v === 1 ? 'notices.read' : 'notices.unread')} />,
    },
    {
      title: t('crud.actions'),
      key: 'actions',
      width: 100,
      render: (_: unknown, row) => (
        <Button type="link" size="small" onClick={() => open(row)}>
          {t('notices.open')}
        </Button>
      ),
    },
  ];

  const pager = usePager(filter, list.data?.total, (pageNo, pageSize) => setFilter((f) => ({ ...f, pageNo, pageSize })));

  return (
    <Flex vertical gap={16}>
      <Card variant="borderless">
        <SearchBar<{ titile?: string }>
          name="user-announcement-search"
          fields={[{ name: 'titile', label: t('notices.title'), control: <Input allowClear /> }]}
          onSearch={(values) => setFilter((f) => ({ ...f, pageNo: 1, titile: values.titile?.trim() || undefined }))}
          onReset={() => setFilter((f) => ({ ...f, pageNo: 1, titile: undefined }))}
        />
      </Card>
      <Card variant="borderless">
        <Flex wrap gap={8} style={{ marginBottom: 12 }}>
          <Space>
            <Segmented<ReadFilter>
              value={readFilter}
              onChange={(value) => {
                setReadFilter(value);
                setFilter((f) => ({ ...f, pageNo: 1, readFlag: value === 'all' ? undefined : value }));
              }}
              options={[
                { value: 'all', label: t('notices.allStates') },
                { value: '0', label: t('notices.unread') },
                { value: '1', label: t('notices.read') },
              ]}
            />
            <Button
              onClick={() =>
                modal.confirm({
                  title: t('notices.readAllConfirm'),
                  onOk: async () => {
                    await readAll.mutateAsync();
                    void message.success(t('notices.readAll'));
                  },
                })
              }
            >
              {t('notices.readAll')}
            </Button>
          </Space>
        </Flex>
        <Table<UserNotice>
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          columns={columns}
          dataSource={list.data?.records ?? []}
          scroll={{ x: 900 }}
          onRow={(row) => ({ onDoubleClick: () => open(row) })}
          pagination={pager}
        />
      </Card>
      <AnnouncementDetailModal notice={detail} onClose={() => setDetail(null)} />
    </Flex>
  );
}
