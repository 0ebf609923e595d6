import type { MyVisit, VisitStateValue } from '@isps/contract';
import { App, Button, Card, Empty, Grid, List, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { cancelVisit, useMyVisits, useVisitChange } from '../api/my-visits.ts';

const stateColor: Record<VisitStateValue, string> = { requested: 'gold', approved: 'green', refused: 'red' };

export function VisitStateTag({ state }: { state: VisitStateValue }) {
  const { t } = useTranslation();
  return <Tag color={stateColor[state]}>{t(`visitorArea.state.${state}`)}</Tag>;
}

function CancelButton({ visit }: { visit: MyVisit }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const cancel = useVisitChange(cancelVisit);
  if (visit.state !== 'requested') return null;
  return (
    <Button
      size="small"
      danger
      loading={cancel.isPending}
      onClick={() =>
        modal.confirm({
          title: t('visitorArea.cancelConfirm'),
          okText: t('visitorArea.cancel'),
          okButtonProps: { danger: true },
          cancelText: t('common.cancel'),
          onOk: () => cancel.mutateAsync(visit.id).then((e) => void message.success(e.message), (error: Error) => void message.error(error.message)),
        })
      }
    >
      {t('visitorArea.cancel')}
    </Button>
  );
}

/** The visitor's own visits: cards on a phone, a table on a wider screen; what each waits for or opens. */
export function MyVisits() {
  const { t } = useTranslation();
  const visits = useMyVisits();
  const wide = Grid.useBreakpoint().md ?? false;
  if (visits.isLoading) return <Skeleton active />;
  const rows = visits.data ?? [];
  if (rows.length === 0) return <Empty description={t('visitorArea.noVisits')} />;
  const doors = (v: MyVisit) => (v.doorNames.length > 0 ? v.doorNames.join(', ') : t('visitorArea.noDoors'));
  if (wide) {
    return (
      <Table<MyVisit>
        rowKey="id"
        size="middle"
        pagination={false}
        dataSource={rows}
        data-testid="my-visits"
        columns={[
          { title: t('visitorArea.window'), key: 'window', render: (_, v) => `${v.startTime} – ${v.endTime}` },
          { title: t('visitorArea.host'), dataIndex: 'hostName' },
          { title: t('visitorArea.doors'), key: 'doors', render: (_, v) => doors(v) },
          { title: t('visitorArea.stateLabel'), key: 'state', render: (_, v) => <VisitStateTag state={v.state} /> },
          { title: t('visitorArea.firstOpening'), key: 'first', render: (_, v) => v.firstOpenTime ?? '—' },
          { title: t('visitorArea.remark'), key: 'remark', render: (_, v) => (v.state === 'refused' && v.refuseReason ? t('visitorArea.refusedFor', { reason: v.refuseReason }) : (v.remark ?? '')) },
          { title: '', key: 'actions', render: (_, v) => <CancelButton visit={v} /> },
        ]}
      />
    );
  }
  return (
    <List
      data-testid="my-visits"
      dataSource={rows}
      split={false}
      renderItem={(v) => (
        <List.Item style={{ padding: '0 0 12px' }}>
          <Card size="small" style={{ width: '100%' }} title={v.hostName} extra={<VisitStateTag state={v.state} />}>
            <Space direction="vertical" size={2} style={{ width: '100%' }}>
              <Typography.Text>{`${v.startTime} – ${v.endTime}`}</Typography.Text>
              <Typography.Text type="secondary">{`${t('visitorArea.doors')}: ${doors(v)}`}</Typography.Text>
              {v.firstOpenTime ? <Typography.Text type="secondary">{`${t('visitorArea.firstOpening')}: ${v.firstOpenTime}`}</Typography.Text> : null}
              {v.state === 'refused' && v.refuseReason ? <Typography.Text type="danger">{t('visitorArea.refusedFor', { reason: v.refuseReason })}</Typography.Text> : v.remark ? <Typography.Text>{v.remark}</Typography.Text> : null}
              <CancelButton visit={v} />
            </Space>
          </Card>
        </List.Item>
      )}
    />
  );
}
