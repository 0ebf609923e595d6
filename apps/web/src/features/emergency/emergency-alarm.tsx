import { AlertOutlined } from '@ant-design/icons';
import { EmergencyPerm, RealtimeCmd, type EmergencyNotice, type MusterArea } from '@isps/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, List, Popconfirm, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../shared/permission/index.ts';
import { useAppEvent } from '../../shared/realtime/index.ts';
import { formatTime } from '../../shared/time/index.ts';
import { emergencyKey, useEmergency, useEndEmergency, useMuster } from './api/emergency.ts';
import styles from './emergency-alarm.module.css';

function MusterAreaCard({ area }: { area: MusterArea }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={area.areaName ?? t('emergency.noArea')} extra={t('emergency.peopleCount', { count: area.people.length })}>
      <List
        size="small"
        dataSource={area.people}
        renderItem={(person) => (
          <List.Item className={styles.person}>
            <List.Item.Meta title={person.userNo ? `${person.name} (${person.userNo})` : person.name} description={t('emergency.since', { time: formatTime(person.since, 'datetime'), door: person.doorName ?? '—' })} />
          </List.Item>
        )}
      />
    </Card>
  );
}

/**
 * The full-screen alarm of a running emergency scenario, over every console page: what happened, how many egress
 * doors are held open, who is inside per area, and, for an operator allowed to, the button that ends it. It follows
 * the `emergency` real-time message and reads the state at start and whenever the socket reopens.
 */
export function EmergencyAlarm() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { message } = App.useApp();
  const state = useEmergency();
  const active = state.data?.active === true;
  const muster = useMuster(active);
  const mayEnd = usePermission(EmergencyPerm.end);
  const end = useEndEmergency();

  useAppEvent('realtimeMessage', (m) => {
    if (m.cmd !== RealtimeCmd.emergency) return;
    const notice = m.data as EmergencyNotice | undefined;
    // a read begun before the message (the socket's reopening starts one) would answer with the state before it
    if (notice && typeof notice.active === 'boolean') void client.cancelQueries({ queryKey: emergencyKey }).then(() => client.setQueryData(emergencyKey, notice));
    else void client.invalidateQueries({ queryKey: emergencyKey });
    if (notice?.active) void client.invalidateQueries({ queryKey: ['emergency', 'muster'] });
  });
  useAppEvent('realtimeOpen', () => void client.invalidateQueries({ queryKey: emergencyKey }));

  if (!state.data?.active) return null;
  const { scenario } = state.data;
  const areas = muster.data ?? [];

  const finish = async () => {
    const answer = await end.mutateAsync(scenario.id);
    if (answer.success) {
      void message.success(answer.message || t('emergency.ended'));
      client.setQueryData(emergencyKey, { active: false, scenario: answer.result });
    }
  };

  return (
    <div className={styles.overlay} role="alertdialog" aria-modal="true" aria-labelledby="emergency-title" aria-describedby="emergency-subtitle" data-testid="emergency-alarm">
      <div className={styles.head}>
        <div>
          <h1 id="emergency-title" className={styles.title}>
            <AlertOutlined /> {t('emergency.title')}
          </h1>
          <p id="emergency-subtitle" className={styles.subtitle}>
            {t('emergency.subtitle', { intensity: scenario.intensity, device: scenario.deviceName, time: formatTime(scenario.startTime, 'datetime') })}
          </p>
          <p className={styles.subtitle}>{t('emergency.doorsHeld', { count: scenario.doorCount })}</p>
        </div>
        {mayEnd ? (
          <Popconfirm title={t('emergency.end')} description={t('emergency.endConfirm')} onConfirm={finish} okText={t('emergency.end')} okButtonProps={{ danger: true, loading: end.isPending }} zIndex={2100}>
            <Button size="large" ghost>
              {t('emergency.end')}
            </Button>
          </Popconfirm>
        ) : (
          <Typography.Text style={{ color: '#fff' }}>{t('emergency.onlyPermitted')}</Typography.Text>
        )}
      </div>
      <h2 className={styles.musterTitle}>{t('emergency.muster')}</h2>
      {areas.length === 0 ? (
        <Card size="small" style={{ marginTop: 16 }}>
          <Empty description={t('emergency.musterEmpty')} />
        </Card>
      ) : (
        <div className={styles.areas}>
          {areas.map((area) => (
            <MusterAreaCard key={area.areaId ?? '-'} area={area} />
          ))}
        </div>
      )}
    </div>
  );
}
