import { AlertOutlined, CheckCircleFilled, DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { EmergencyPerm, type EmergencyScenario, type MusterArea, type MusterPerson, type RollCallEntry } from '@isps/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, List, Popconfirm, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../shared/permission/index.ts';
import { formatTime } from '../../shared/time/index.ts';
import { ALARM_POPUP_Z_INDEX, ALARM_Z_INDEX } from './alarm-layer.ts';
import { emergencyKey, useEndEmergency, useMuster } from './api/emergency.ts';
import { useExportRollCall } from './api/export-roll-call.ts';
import { useMarkSafe } from './api/roll-call.ts';
import styles from './emergency-alarm.module.css';
import { ReleasesCard } from './releases-card.tsx';
import { useRollCallPrint } from './roll-call-sheet.tsx';
import { sinceText } from './since-text.ts';

function PersonRow({ person, scenarioId, mayMark, onProblem }: { person: MusterPerson; scenarioId: string; mayMark: boolean; onProblem: (text: string | null) => void }) {
  const { t } = useTranslation();
  const mark = useMarkSafe();
  const toggle = async (safe: boolean) => {
    onProblem(null);
    try {
      const answer = await mark.mutateAsync({ id: scenarioId, peopleId: person.peopleId, safe });
      if (!answer.success) onProblem(answer.message);
    } catch (error) {
      onProblem(error instanceof Error ? error.message : String(error));
    }
  };
  const name = person.userNo ? `${person.name} (${person.userNo})` : person.name;
  return (
    <List.Item className={styles.person} data-safe={person.safeBy ? 'true' : 'false'}>
      <div className={styles.personText}>
        <div className={styles.personName}>{name}</div>
        <Typography.Text type="secondary">{sinceText(t, person.since, person.doorName)}</Typography.Text>
        <div className={styles.rollRow}>
          {person.safeBy ? (
            <Tag color="success" icon={<CheckCircleFilled />} className={styles.safe}>
              {t('emergency.safeBy', { user: person.safeBy, time: formatTime(person.safeTime, 'datetime') })}
            </Tag>
          ) : null}
          {mayMark ? (
            <Button size="small" type={person.safeBy ? 'default' : 'primary'} onClick={() => void toggle(!person.safeBy)} loading={mark.isPending} aria-label={`${t(person.safeBy ? 'emergency.unmarkSafe' : 'emergency.markSafe')}: ${name}`}>
              {t(person.safeBy ? 'emergency.unmarkSafe' : 'emergency.markSafe')}
            </Button>
          ) : null}
        </div>
      </div>
    </List.Item>
  );
}

function MusterAreaCard({ area, scenarioId, mayMark, onProblem }: { area: MusterArea; scenarioId: string; mayMark: boolean; onProblem: (text: string | null) => void }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={area.areaName ?? t('emergency.noArea')} extra={t('emergency.peopleCount', { count: area.people.length })}>
      {area.people.length > 0 ? (
        <List size="small" dataSource={area.people} rowKey="peopleId" renderItem={(person) => <PersonRow person={person} scenarioId={scenarioId} mayMark={mayMark} onProblem={onProblem} />} />
      ) : null}
      {area.unknown.length > 0 ? (
        <div className={styles.unknown}>
          <Typography.Text type="secondary">{t('emergency.unknownCards')}</Typography.Text>
          <ul>
            {area.unknown.map((entry) => (
              <li key={`${entry.label}-${entry.since}`}>
                {entry.label} · {sinceText(t, entry.since, entry.doorName)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}

/** The muster list as roll call entries, for the printed sheet. */
function rollCallOf(areas: MusterArea[]): RollCallEntry[] {
  return areas.flatMap((area) => area.people.map((p) => ({ peopleId: p.peopleId, name: p.name, userNo: p.userNo, areaName: area.areaName, doorName: p.doorName, safeBy: p.safeBy, safeTime: p.safeTime })));
}

export function subtitleOf(t: ReturnType<typeof useTranslation>['t'], scenario: EmergencyScenario): string {
  const time = formatTime(scenario.startTime, 'datetime');
  return scenario.drill ? t('emergency.drillSubtitle', { user: scenario.startBy ?? '', time }) : t('emergency.subtitle', { intensity: scenario.intensity, device: scenario.deviceName ?? '', time });
}

/** The alarm's overlay while `scenario` runs: a chunk of its own, loaded when an emergency starts (emergency-alarm.tsx). */
export function EmergencyOverlay({ scenario }: { scenario: EmergencyScenario }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { message } = App.useApp();
  const active = true;
  const muster = useMuster(active);
  const mayEnd = usePermission(EmergencyPerm.end);
  const mayMark = usePermission(EmergencyPerm.rollCall);
  const end = useEndEmergency();
  const exporter = useExportRollCall();
  const { print, sheet } = useRollCallPrint();
  // the console's notices are under the alarm: its own refusals are shown in it
  const [problem, setProblem] = useState<string | null>(null);

  const areas = muster.data ?? [];
  const people = areas.reduce((sum, area) => sum + area.people.length, 0);
  const safe = areas.reduce((sum, area) => sum + area.people.filter((p) => p.safeBy).length, 0);
  const title = scenario.drill ? t('emergency.drillTitle') : t('emergency.title');
  const endLabel = scenario.drill ? t('emergency.endDrill') : t('emergency.end');

  const finish = async () => {
    const answer = await end.mutateAsync(scenario.id);
    if (answer.success) {
      void message.success(answer.message || t(scenario.drill ? 'emergency.drillEnded' : 'emergency.ended'));
      client.setQueryData(emergencyKey, { active: false, scenario: answer.result });
    }
  };
  const download = async () => {
    setProblem(null);
    try {
      await exporter.mutateAsync(scenario.id);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <div
      className={`${styles.overlay} ${scenario.drill ? styles.drill : ''}`}
      style={{ zIndex: ALARM_Z_INDEX }}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="emergency-title"
      aria-describedby="emergency-subtitle"
      data-testid="emergency-alarm"
      data-drill={scenario.drill ? 'true' : 'false'}
    >
      <div className={styles.head}>
        <div className={styles.headText}>
          <h1 id="emergency-title" className={styles.title}>
            <AlertOutlined /> {title}
            {scenario.drill ? <span className={styles.badge}>{t('emergency.drillBadge')}</span> : null}
          </h1>
          <p id="emergency-subtitle" className={styles.subtitle}>
            {subtitleOf(t, scenario)}
          </p>
          <p className={styles.subtitle}>
            {t('emergency.doorsHeld', { count: scenario.doorCount })} · {t('emergency.rollCallSummary', { safe, count: people })}
          </p>
        </div>
        <div className={styles.controls}>
          <Button ghost icon={<PrinterOutlined />} onClick={() => print({ title, lines: [subtitleOf(t, scenario)], entries: rollCallOf(areas) })}>
            {t('emergency.print')}
          </Button>
          <Button ghost icon={<DownloadOutlined />} onClick={() => void download()} loading={exporter.isPending}>
            {t('emergency.export')}
          </Button>
          {mayEnd ? (
            <Popconfirm
              title={endLabel}
              description={scenario.drill ? t('emergency.endDrillConfirm') : t('emergency.endConfirm')}
              onConfirm={finish}
              okText={endLabel}
              okButtonProps={{ danger: true, loading: end.isPending }}
              zIndex={ALARM_POPUP_Z_INDEX}
            >
              <Button size="large" className={styles.end}>
                {endLabel}
              </Button>
            </Popconfirm>
          ) : (
            <Typography.Text style={{ color: '#fff' }}>{t('emergency.onlyPermitted')}</Typography.Text>
          )}
        </div>
      </div>
      {problem ? <Alert type="error" showIcon message={problem} closable onClose={() => setProblem(null)} style={{ marginTop: 16 }} /> : null}
      <ReleasesCard active={active} />
      <h2 className={styles.musterTitle}>{t('emergency.muster')}</h2>
      {areas.length === 0 ? (
        <Card size="small" style={{ marginTop: 16 }}>
          <Empty description={t('emergency.musterEmpty')} />
        </Card>
      ) : (
        <div className={styles.areas}>
          {areas.map((area) => (
            <MusterAreaCard key={area.areaId ?? '-'} area={area} scenarioId={scenario.id} mayMark={mayMark} onProblem={setProblem} />
          ))}
        </div>
      )}
      {sheet}
    </div>
  );
}
