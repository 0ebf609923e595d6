import { permissionCode } from '@isps/contract';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRowState, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../../shared/crud/index.ts';
import { Authorized } from '../../../shared/permission/index.ts';
import { CalendarDialog } from './calendar-dialog.tsx';
import { RecomputeToolbar } from './recompute-toolbar.tsx';

/** A month row's "Calendar": the person's days of that month. */
function MonthRowActions({ entity, row }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const [open, setOpen] = useRowState(row.id, 'calendar', false);
  return (
    <Authorized code={permissionCode(entity, 'list')}>
      <Button type="link" size="small" data-command="calendar" onClick={() => setOpen(true)}>
        {t('attendanceMonth.calendar')}
      </Button>
      {open ? <CalendarDialog peopleId={String(row.userId)} name={String(row.userName ?? '')} month={String(row.month)} onClose={() => setOpen(false)} /> : null}
    </Authorized>
  );
}

/** The monthly statistics beside the generic screen: recompute a month, and each person's month as a calendar. */
export const monthExtension: CrudExtension = { Toolbar: RecomputeToolbar, RowActions: MonthRowActions };
