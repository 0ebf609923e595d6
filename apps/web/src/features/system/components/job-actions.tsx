import { JobStatus, jobLogEntity, permissionCode } from '@isps/contract';
import { App, Button, Modal, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudScreen, useRowState, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../../shared/crud/index.ts';
import { usePermissionCheck } from '../../../shared/permission/index.ts';
import { useDrawerSize } from '../../../shared/ui/index.ts';
import { useCommandJob, type JobCommand } from '../api/quartz-jobs.ts';

/** Start or stop (after a confirmation), run once, and the run history of a scheduled job. */
function JobRowActions({ entity, row, refresh }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = usePermissionCheck();
  const command = useCommandJob();
  const size = useDrawerSize();
  const [history, setHistory] = useRowState(row.id, 'history', false);
  const running = Number(row.status) === JobStatus.normal;
  const run = (which: JobCommand) =>
    command.mutate(
      { id: row.id, command: which },
      {
        onSuccess: (envelope) => {
          void message.success(envelope.message);
          refresh();
        },
        onError: (error) => void message.error(error.message),
      },
    );
  return (
    <>
      {running && can(permissionCode(entity, 'pause')) ? (
        <Popconfirm title={t('jobScreen.stopConfirm')} okText={t('common.ok')} cancelText={t('common.cancel')} onConfirm={() => run('pause')}>
          <Button type="link" size="small" danger>
            {t('jobScreen.stop')}
          </Button>
        </Popconfirm>
      ) : null}
      {!running && can(permissionCode(entity, 'resume')) ? (
        <Button type="link" size="small" onClick={() => run('resume')}>
          {t('jobScreen.start')}
        </Button>
      ) : null}
      {can(permissionCode(entity, 'execute')) ? (
        <Button type="link" size="small" loading={command.isPending && command.variables?.command === 'execute'} onClick={() => run('execute')}>
          {t('jobScreen.runOnce')}
        </Button>
      ) : null}
      <Button type="link" size="small" onClick={() => setHistory(true)}>
        {t('jobLog.title')}
      </Button>
      {history ? (
        <Modal open title={t('jobScreen.historyTitle', { name: t(`quartzJob.handler.${String(row.jobClassName)}`) })} footer={null} width={size === '100%' ? '100%' : 1000} onCancel={() => setHistory(false)} destroyOnHidden>
          <CrudScreen entity={jobLogEntity} fixed={{ jobId: row.id }} embedded />
        </Modal>
      ) : null}
    </>
  );
}

export const jobExtension: CrudExtension = { RowActions: JobRowActions };
