import { AlertOutlined } from '@ant-design/icons';
import { RealtimeCmd, type EmergencyNotice, type EmergencyScenario } from '@isps/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAppEvent } from '../../shared/realtime/index.ts';
import { lazyPart } from '../../shared/ui/lazy-dialog.tsx';
import { ALARM_Z_INDEX } from './alarm-layer.ts';
import { emergencyKey, musterKey, releasesKey, useEmergency } from './api/emergency.ts';
import { reportsKey } from './api/emergency-reports.ts';
import styles from './emergency-alarm.module.css';

export { ALARM_Z_INDEX } from './alarm-layer.ts';

/** What shows at once when an emergency starts, while the alarm's overlay loads: the overlay's red field and its title. */
function AlarmComing({ scenario }: { scenario: EmergencyScenario }) {
  const { t } = useTranslation();
  return (
    <div className={`${styles.overlay} ${scenario.drill ? styles.drill : ''}`} style={{ zIndex: ALARM_Z_INDEX }} role="alertdialog" aria-modal="true" aria-labelledby="emergency-title" aria-busy="true">
      <div className={styles.head}>
        <div className={styles.headText}>
          <h1 id="emergency-title" className={styles.title}>
            <AlertOutlined /> {scenario.drill ? t('emergency.drillTitle') : t('emergency.title')}
          </h1>
        </div>
      </div>
    </div>
  );
}

// the overlay (roll call, print, export, the end) is a chunk of its own, loaded when an emergency starts
const EmergencyOverlay = lazyPart(() => import('./emergency-overlay.tsx').then((m) => m.EmergencyOverlay), (props) => <AlarmComing {...props} />);

/**
 * The full-screen alarm of a running emergency scenario (or drill, marked as one), over every console page and its
 * notices: what happened, how many egress doors are held open, who is inside per area with the roll call, print and
 * export, and, for an operator allowed to, the button that ends it. It follows the `emergency` real-time message and
 * reads the state at start and whenever the socket reopens.
 */
export function EmergencyAlarm() {
  const client = useQueryClient();
  const state = useEmergency();

  useAppEvent('realtimeMessage', (m) => {
    if (m.cmd !== RealtimeCmd.emergency) return;
    const notice = m.data as EmergencyNotice | undefined;
    // a read begun before the message (the socket's reopening starts one) would answer with the state before it
    if (notice && typeof notice.active === 'boolean') void client.cancelQueries({ queryKey: emergencyKey }).then(() => client.setQueryData(emergencyKey, notice));
    else void client.invalidateQueries({ queryKey: emergencyKey });
    if (notice?.active) void client.invalidateQueries({ queryKey: musterKey });
    if (notice?.active) void client.invalidateQueries({ queryKey: releasesKey });
    // an open list of past emergencies shows the one that started or ended
    void client.invalidateQueries({ queryKey: reportsKey });
  });
  useAppEvent('realtimeOpen', () => void client.invalidateQueries({ queryKey: emergencyKey }));

  if (!state.data?.active) return null;
  return <EmergencyOverlay scenario={state.data.scenario} />;
}
