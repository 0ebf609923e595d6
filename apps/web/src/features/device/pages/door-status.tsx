import { DOOR_STATE_NAMES, DoorPerm, DoorState, doorEntity, type DevicePresenceNotice, type DoorStateNotice, type DoorStatusRow } from '@isps/contract';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Badge, Card, Col, Empty, Row, Segmented, Skeleton, Statistic, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePermission } from '../../../shared/permission/index.ts';
import { useAppEvent } from '../../../shared/realtime/index.ts';
import { formatTime } from '../../../shared/time/index.ts';
import { doorStatusKey, useDoorStatus } from '../api/door-status.ts';
import { DoorOpenAction } from '../door-open-action.tsx';
import { DoorPlanView } from '../floor-plan/door-plan-view.tsx';
import { LoadFailed } from '../../../shared/ui/index.ts';

const stateColors: Record<DoorState, string> = { [DoorState.closed]: 'default', [DoorState.open]: 'green', [DoorState.alarm]: 'red' };

/**
 * The doors with a doorState notice applied: a named door takes the reported state unless it already holds a later
 * one. Returns null when the notice names a door the list does not have (it must be read again).
 */
export function applyDoorStates(doors: DoorStatusRow[], notice: DoorStateNotice): DoorStatusRow[] | null {
  const byId = new Map(notice.doors.map((d) => [d.id, d]));
  if (notice.doors.some((d) => !doors.some((door) => door.id === d.id))) return null;
  return doors.map((door) => {
    const change = byId.get(door.id);
    if (!change || (door.stateTime !== null && change.stateTime < door.stateTime)) return door;
    return { ...door, state: change.state, stateTime: change.stateTime };
  });
}

/** The doors with their devices' presence changed; null when the notice names fewer devices than changed. */
export function applyPresence(doors: DoorStatusRow[], online: boolean, notice: DevicePresenceNotice): DoorStatusRow[] | null {
  const ids = new Set(notice.ids ?? notice.devices.map((d) => d.id));
  if (notice.count > ids.size) return null;
  return doors.map((door) => (ids.has(door.deviceId) && door.deviceOnline !== online ? { ...door, deviceOnline: online } : door));
}

function update(client: QueryClient, change: (doors: DoorStatusRow[]) => DoorStatusRow[] | null): void {
  const doors = client.getQueryData<DoorStatusRow[]>(doorStatusKey);
  if (!doors) return;
  const next = change(doors);
  if (next) client.setQueryData(doorStatusKey, next);
  else void client.invalidateQueries({ queryKey: doorStatusKey });
}

/** Keeps the door list current from the real-time channel: door states and device presence change in place. */
function useLiveDoors(): void {
  const client = useQueryClient();
  useAppEvent('doorState', ({ data }) => {
    const notice = data as DoorStateNotice | undefined;
    if (notice && Array.isArray(notice.doors)) update(client, (doors) => applyDoorStates(doors, notice));
  });
  useAppEvent('deviceConnection', ({ connected, data }) => {
    const notice = data as DevicePresenceNotice | undefined;
    if (notice && Array.isArray(notice.devices)) update(client, (doors) => applyPresence(doors, connected, notice));
  });
  // messages may have been missed while the socket was closed
  useAppEvent('realtimeOpen', () => void client.invalidateQueries({ queryKey: doorStatusKey }));
}

/** The door screen's path, where a card's name leads (the door's details open there). */
const DOOR_PAGE = '/device/door';

function DoorCard({ door, refresh }: { door: DoorStatusRow; refresh: () => void }) {
  const { t } = useTranslation();
  const canSeeDoors = usePermission(DoorPerm.list);
  const stateName = DOOR_STATE_NAMES[door.state] ?? 'closed';
  return (
    <Card
      size="small"
      title={
        canSeeDoors ? (
          <Link to={`${DOOR_PAGE}?id=${encodeURIComponent(door.id)}`} title={t('doorStatus.openDoorPage')} data-testid="door-link">
            {door.doorName}
          </Link>
        ) : (
          door.doorName
        )
      }
      extra={
        <Tag color={stateColors[door.state]} data-testid="door-state">
          {t(`door.state.${stateName}`)}
        </Tag>
      }
      data-door-id={door.id}
      data-state={stateName}
      style={door.state === DoorState.alarm ? { borderColor: '#ff4d4f' } : undefined}
    >
      <Typography.Paragraph style={{ marginBottom: 4 }}>
        <Badge status={door.deviceOnline ? 'success' : 'default'} text={`${door.deviceName ?? '—'} · ${t(door.deviceOnline ? 'doorStatus.deviceOnline' : 'doorStatus.deviceOffline')}`} />
      </Typography.Paragraph>
      <Typography.Text type="secondary">
        {t('door.field.doorNo')}: {door.doorNo}
        {door.stateTime ? ` · ${t('doorStatus.since', { time: formatTime(door.stateTime, 'datetime') })}` : ''}
      </Typography.Text>
      {door.deviceOnline ? (
        <div style={{ marginTop: 8 }}>
          <DoorOpenAction entity={doorEntity} refresh={refresh} row={{ id: door.id, doorName: door.doorName }} />
        </div>
      ) : null}
    </Card>
  );
}

/** The door status page: every door as a card with its state and its device's presence, live. */
export default function DoorStatusPage() {
  const { t } = useTranslation();
  const status = useDoorStatus();
  const client = useQueryClient();
  const [view, setView] = useState<'cards' | 'plan'>('cards');
  useLiveDoors();
  const refresh = () => void client.invalidateQueries({ queryKey: doorStatusKey });

  if (status.isPending)
    return (
      <div data-testid="door-status-loading">
        <Skeleton active />
      </div>
    );
  if (status.isError)
    return (
      <LoadFailed onRetry={() => void status.refetch()} />
    );
  const doors = status.data;
  if (doors.length === 0) return <Empty description={t('doorStatus.empty')} />;

  const count = (state: DoorState) => doors.filter((d) => d.state === state).length;
  const figures = [
    { key: 'open', title: t('door.state.open'), value: count(DoorState.open) },
    { key: 'closed', title: t('door.state.closed'), value: count(DoorState.closed) },
    { key: 'alarm', title: t('door.state.alarm'), value: count(DoorState.alarm) },
    { key: 'offline', title: t('doorStatus.offlineDoors'), value: doors.filter((d) => !d.deviceOnline).length },
  ];
  return (
    <div data-testid="door-status">
      <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
        {figures.map((f) => (
          <Col key={f.key} xs={12} md={6}>
            <Card size="small">
              <Statistic title={f.title} value={f.value} data-testid={`door-count-${f.key}`} />
            </Card>
          </Col>
        ))}
      </Row>
      <Segmented
        style={{ marginBottom: 12 }}
        aria-label={t('floorPlan.view')}
        value={view}
        onChange={(value) => setView(value as 'cards' | 'plan')}
        options={[
          { value: 'cards', label: t('floorPlan.cards') },
          { value: 'plan', label: t('floorPlan.plan') },
        ]}
        data-testid="door-status-view"
      />
      {view === 'plan' ? (
        <DoorPlanView doors={doors} refresh={refresh} />
      ) : (
        <Row gutter={[12, 12]}>
          {doors.map((door) => (
            <Col key={door.id} xs={24} sm={12} lg={8} xxl={6}>
              <DoorCard door={door} refresh={refresh} />
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
