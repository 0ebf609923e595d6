import { permissionCode, type AttendanceStatus } from '@isps/contract';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRowState, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../../shared/crud/index.ts';
import { Authorized } from '../../../shared/permission/index.ts';
import { CorrectDialog } from './correct-dialog.tsx';
import { PunchesDialog } from './punches-dialog.tsx';

/** A day row's "Punches" (device:attendance:list) and "Correct" (device:attendance:correct). */
function DayRowActions({ entity, row }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const [punches, setPunches] = useRowState(row.id, 'punches', false);
  const [correcting, setCorrecting] = useRowState(row.id, 'correct', false);
  const day = String(row.day ?? '');
  return (
    <>
      <Authorized code={permissionCode(entity, 'list')}>
        <Button type="link" size="small" data-command="punches" onClick={() => setPunches(true)}>
          {t('attendance.punches')}
        </Button>
        {punches ? <PunchesDialog dayId={row.id} day={day} onClose={() => setPunches(false)} /> : null}
      </Authorized>
      <Authorized code={permissionCode(entity, 'correct')}>
        <Button type="link" size="small" data-command="correct" onClick={() => setCorrecting(true)}>
          {t('attendance.correct')}
        </Button>
        {correcting ? <CorrectDialog dayId={row.id} day={day} status={Number(row.status) as AttendanceStatus} onClose={() => setCorrecting(false)} /> : null}
      </Authorized>
    </>
  );
}

/** The daily results beside the generic screen: each day's punches, and its correction. */
export const dayExtension: CrudExtension = { RowActions: DayRowActions };
