import { KeyOutlined, LockOutlined, LogoutOutlined } from '@ant-design/icons';
import type { EmergencyRelease, EmergencyReleaseState } from '@isps/contract';
import { Card, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useReleases } from './api/emergency.ts';

const STATE_COLOR: Record<EmergencyReleaseState, string> = { queued: 'default', sent: 'processing', done: 'success', failed: 'error' };
const ICON = { door: <LogoutOutlined />, lockers: <LockOutlined />, keys: <KeyOutlined /> } as const;

/**
 * The running scenario's egress doors, lockers and keys side by side, device by device, each with where its device is
 * with the release (waiting for it, sent, released, refused). Nothing shows when the scenario released nothing.
 */
export function ReleasesCard({ active }: { active: boolean }) {
  const { t } = useTranslation();
  const releases = useReleases(active);
  const rows = releases.data ?? [];
  if (rows.length === 0) return null;
  const what = (r: EmergencyRelease) => (r.kind === 'door' ? t('emergency.release.door') : t(`emergency.release.${r.kind}`, { count: r.count }));
  return (
    <Card size="small" title={t('emergency.releases')} style={{ marginTop: 16 }} data-testid="emergency-releases">
      <List
        size="small"
        dataSource={rows}
        renderItem={(r) => (
          <List.Item data-release-kind={r.kind} data-release-state={r.state}>
            <List.Item.Meta avatar={ICON[r.kind]} title={r.name} description={what(r)} />
            {!r.online ? <Typography.Text type="secondary">{t('emergency.releaseOffline')}</Typography.Text> : null}
            <Tag color={STATE_COLOR[r.state]} style={{ marginInlineStart: 8 }}>
              {t(`emergency.releaseState.${r.state}`)}
            </Tag>
          </List.Item>
        )}
      />
    </Card>
  );
}
