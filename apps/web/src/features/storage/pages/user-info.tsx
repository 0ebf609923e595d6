import type { StorageUserInfo } from '@isps/contract';
import { Card, Empty, Flex, Input, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudTable, type CrudColumn, type CrudRow } from '../../../shared/crud/index.ts';
import { formatTime } from '../../../shared/time/index.ts';
import { LoadFailed } from '../../../shared/ui/index.ts';
import { useUserInfo, type UserInfoFilter } from '../api/user-info.ts';

const info = (row: CrudRow) => row as unknown as StorageUserInfo;

/** People as the storage system knows them: their group, the cabinets they hold and when they last opened one; by name, paged. */
export default function UserInfoPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<UserInfoFilter>({ pageNo: 1, pageSize: 10 });
  const [name, setName] = useState('');
  const list = useUserInfo(filter);

  const columns: CrudColumn[] = [
    { key: 'name', title: t('storageUserInfo.field.name'), render: (row) => info(row).name, phoneRank: 0 },
    { key: 'userNo', title: t('storageUserInfo.field.userNo'), render: (row) => info(row).userNo ?? '' },
    { key: 'departName', title: t('storageUserInfo.field.departName'), render: (row) => info(row).departName ?? '', term: true },
    {
      key: 'cabinets',
      title: t('storageUserInfo.field.cabinets'),
      render: (row) => (
        <Space size={[4, 4]} wrap>
          {info(row).cabinets.map((cabinet) => (
            <Tag key={cabinet} color="blue">
              {cabinet}
            </Tag>
          ))}
        </Space>
      ),
      phoneRank: 1,
    },
    { key: 'cabinetCount', title: t('storageUserInfo.field.cabinetCount'), render: (row) => info(row).cabinetCount },
    {
      key: 'lastOpenTime',
      title: t('storageUserInfo.field.lastOpenTime'),
      render: (row) => (info(row).lastOpenTime ? formatTime(info(row).lastOpenTime, 'datetime') : t('storageUserInfo.neverOpened')),
      width: 180,
    },
  ];

  if (list.isError && !list.data) return <LoadFailed onRetry={() => void list.refetch()} />;
  const page = list.data;
  return (
    <Card title={t('storageUserInfo.title')} data-testid="storage-user-info">
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Input.Search
          aria-label={t('storageUserInfo.searchName')}
          placeholder={t('storageUserInfo.searchName')}
          allowClear
          style={{ maxWidth: 280 }}
          value={name}
          onChange={(e) => setName(e.target.value)}
          onSearch={(value) => setFilter((f) => ({ ...f, pageNo: 1, name: value.trim() || undefined }))}
        />
      </Flex>
      {page && page.total === 0 && !list.isFetching ? (
        <Empty description={t(filter.name ? 'storageUserInfo.noMatch' : 'storageUserInfo.empty')} />
      ) : (
        <CrudTable
          ariaLabel={t('storageUserInfo.title')}
          columns={columns}
          rows={(page?.records ?? []) as unknown as CrudRow[]}
          loading={list.isFetching}
          pagination={{ current: filter.pageNo, pageSize: filter.pageSize, total: page?.total ?? 0 }}
          sort={null}
          onChange={({ current, pageSize }) => setFilter((f) => ({ ...f, pageNo: pageSize === f.pageSize ? current : 1, pageSize }))}
        />
      )}
    </Card>
  );
}
