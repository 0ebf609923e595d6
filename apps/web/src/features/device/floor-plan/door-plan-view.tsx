import { DisconnectOutlined, LockOutlined, UnlockOutlined, WarningOutlined } from '@ant-design/icons';
import { DOOR_STATE_NAMES, DoorPerm, doorEntity, type DoorFloorPlan, type DoorStatusRow } from '@isps/contract';
import { Button, Empty, Popover, Select, Skeleton, Space, Tooltip, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../shared/permission/index.ts';
import { LoadFailed } from '../../../shared/ui/index.ts';
import { useDoorFloorPlans } from '../api/floor-plan.ts';
import { DoorOpenAction } from '../door-open-action.tsx';
import { markerPlace, PlanImage } from './plan-image.tsx';

/** What a door on the plan shows: its state, or offline while its device cannot be reached. */
export type PlanDoorState = 'open' | 'closed' | 'alarm' | 'offline';

export function planDoorState(door: DoorStatusRow): PlanDoorState {
  if (!door.deviceOnline) return 'offline';
  return DOOR_STATE_NAMES[door.state] ?? 'closed';
}

/** Each state has its colour, and its icon and words too: the state never rests on colour alone. */
const stateLooks: Record<PlanDoorState, { color: string; background: string; icon: ReactNode }> = {
  open: { color: '#237804', background: '#f6ffed', icon: <UnlockOutlined /> },
  closed: { color: '#1d39c4', background: '#f0f5ff', icon: <LockOutlined /> },
  alarm: { color: '#cf1322', background: '#fff1f0', icon: <WarningOutlined /> },
  offline: { color: '#595959', background: '#f5f5f5', icon: <DisconnectOutlined /> },
};

function stateLabelKey(state: PlanDoorState): string {
  return state === 'offline' ? 'floorPlan.offline' : `door.state.${state}`;
}

/** The popover of a door on the plan: its state and, for holders of device:door:open, the remote opening. */
function DoorPopover({ door, refresh }: { door: DoorStatusRow; refresh: () => void }) {
  const { t } = useTranslation();
  const canOpen = usePermission(DoorPerm.open);
  const state = planDoorState(door);
  return (
    <Space direction="vertical" size={4} data-testid="plan-door-popover">
      <Typography.Text>
        {stateLooks[state].icon} {t(stateLabelKey(state))}
      </Typography.Text>
      <Typography.Text type="secondary">
        {door.deviceName ?? '—'} · {t(door.deviceOnline ? 'doorStatus.deviceOnline' : 'doorStatus.deviceOffline')}
      </Typography.Text>
      {canOpen && door.deviceOnline ? (
        <DoorOpenAction entity={doorEntity} refresh={refresh} row={{ id: door.id, doorName: door.doorName }} />
      ) : (
        <Tooltip title={t(canOpen ? 'floorPlan.openNeedsOnline' : 'floorPlan.openNeedsPermission')}>
          {/* a disabled button takes no pointer events: the span keeps the tooltip */}
          <span>
            <Button type="link" size="small" disabled data-command="open" style={{ paddingInline: 0 }}>
              {t('door.remoteOpen')}
            </Button>
          </span>
        </Tooltip>
      )}
      {!canOpen ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('floorPlan.openNeedsPermission')}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

function PlanDoorMarker({ door, x, y, refresh }: { door: DoorStatusRow; x: number; y: number; refresh: () => void }) {
  const { t } = useTranslation();
  const state = planDoorState(door);
  const look = stateLooks[state];
  const stateText = t(stateLabelKey(state));
  return (
    <Popover trigger="click" title={door.doorName} content={<DoorPopover door={door} refresh={refresh} />}>
      <button
        type="button"
        data-plan-door={door.id}
        data-state={state}
        aria-label={`${door.doorName}: ${stateText}`}
        style={{
          ...markerPlace(x, y),
          display: 'inline-flex',
          flexDirection: 'column',
          alignItems: 'center',
          maxWidth: 140,
          padding: '2px 6px',
          borderRadius: 8,
          border: `2px solid ${look.color}`,
          background: look.background,
          color: look.color,
          fontSize: 12,
          cursor: 'pointer',
          boxShadow: state === 'alarm' ? '0 0 0 3px rgba(207, 19, 34, 0.3)' : '0 1px 3px rgba(0, 0, 0, 0.25)',
        }}
      >
        <span style={{ maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: 'rgba(0, 0, 0, 0.88)' }}>{door.doorName}</span>
        <span style={{ whiteSpace: 'nowrap', fontWeight: 600 }} data-testid="plan-door-state">
          {look.icon} {stateText}
        </span>
      </button>
    </Popover>
  );
}

/** The colours' meaning, in words beside each. */
function Legend() {
  const { t } = useTranslation();
  return (
    <Space wrap size={[12, 4]} aria-label={t('floorPlan.legend')} style={{ marginTop: 8 }}>
      {(Object.keys(stateLooks) as PlanDoorState[]).map((state) => (
        <Typography.Text key={state} style={{ color: stateLooks[state].color }}>
          {stateLooks[state].icon} {t(stateLabelKey(state))}
        </Typography.Text>
      ))}
    </Space>
  );
}

function Plan({ plan, doors, refresh }: { plan: DoorFloorPlan; doors: DoorStatusRow[]; refresh: () => void }) {
  const { t } = useTranslation();
  const byId = new Map(doors.map((d) => [d.id, d]));
  const placed = plan.doors.filter((p) => byId.has(p.id));
  return (
    <div>
      <PlanImage image={plan.image} alt={t('floorPlan.planImage', { name: plan.areaName })} testId="door-plan">
        {placed.map((p) => (
          <PlanDoorMarker key={p.id} door={byId.get(p.id)!} x={p.x} y={p.y} refresh={refresh} />
        ))}
      </PlanImage>
      {placed.length === 0 ? <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>{t('floorPlan.noDoorsPlaced')}</Typography.Paragraph> : null}
      <Legend />
    </div>
  );
}

/**
 * The door status page's plan view: an area's floor plan with each placed door's state, kept live by the page's door
 * list (the same real-time push as the cards); a click on a door offers its remote opening.
 */
export function DoorPlanView({ doors, refresh }: { doors: DoorStatusRow[]; refresh: () => void }) {
  const { t } = useTranslation();
  const plans = useDoorFloorPlans(true);
  const [areaId, setAreaId] = useState<string | null>(null);
  if (plans.isPending) return <Skeleton active />;
  if (plans.isError) return <LoadFailed onRetry={() => void plans.refetch()} />;
  if (plans.data.length === 0) return <Empty description={t('floorPlan.noPlans')} />;
  const plan = plans.data.find((p) => p.areaId === areaId) ?? plans.data[0]!;
  return (
    <div data-testid="door-plan-view">
      <Space wrap style={{ marginBottom: 12 }}>
        <Typography.Text id="door-plan-area">{t('floorPlan.chooseArea')}</Typography.Text>
        <Select
          aria-labelledby="door-plan-area"
          style={{ minWidth: 200 }}
          value={plan.areaId}
          options={plans.data.map((p) => ({ value: p.areaId, label: p.areaName }))}
          onChange={(value: string) => setAreaId(value)}
          data-testid="door-plan-area"
        />
      </Space>
      <Plan plan={plan} doors={doors} refresh={refresh} />
    </div>
  );
}
