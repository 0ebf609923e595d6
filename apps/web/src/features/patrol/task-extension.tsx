import { patrolQuestEntity, permissionCode } from '@isps/contract';
import { App, Button, Modal, Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudScreen, useRowState, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../shared/crud/index.ts';
import { Authorized } from '../../shared/permission/index.ts';
import { useGenerateTasks } from './api/generate-tasks.ts';

/** "Make today's tasks" (watch:task:add): the sweep makes them too, this does it now. */
function GenerateTasks({ entity, refresh }: CrudExtensionProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const generate = useGenerateTasks();
  return (
    <Authorized code={permissionCode(entity, 'add')}>
      <Button
        data-command="generate"
        loading={generate.isPending}
        onClick={() =>
          generate.mutate(undefined, {
            onSuccess: ({ created }) => {
              void message.success(t('patrolTask.generated', { count: created }));
              refresh();
            },
          })
        }
      >
        {t('patrolTask.generate')}
      </Button>
    </Authorized>
  );
}

/** A task's progress (points checked, and missed in red, of all) and its point checks in a dialog. */
function TaskRowActions({ row }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const [open, setOpen] = useRowState(row.id, 'quests', false);
  const total = Number(row.totalCount ?? 0);
  const done = Number(row.doneCount ?? 0);
  const missed = Number(row.missedCount ?? 0);
  const percent = total === 0 ? 0 : Math.round(((done + missed) / total) * 100);
  return (
    <>
      <Progress
        data-progress={`${done}/${total}`}
        percent={percent}
        success={{ percent: total === 0 ? 0 : Math.round((done / total) * 100) }}
        status={missed > 0 ? 'exception' : undefined}
        format={() => `${done}/${total}`}
        size="small"
        style={{ width: 110, display: 'inline-flex', marginInlineEnd: 8 }}
        aria-label={t('patrolTask.progress')}
      />
      <Authorized code={permissionCode(patrolQuestEntity, 'list')}>
        <Button type="link" size="small" data-command="quests" onClick={() => setOpen(true)}>
          {t('patrolQuest.title')}
        </Button>
        {open ? (
          <Modal open title={`${t('patrolQuest.title')} · ${String(row.taskDate ?? '')} ${String(row.missionId_dictText ?? '')}`} footer={null} width={1100} onCancel={() => setOpen(false)} destroyOnHidden>
            <CrudScreen entity={patrolQuestEntity} fixed={{ taskId: row.id }} embedded />
          </Modal>
        ) : null}
      </Authorized>
    </>
  );
}

/** The task list beside the generic screen: make today's tasks, each task's progress and point checks. */
export const taskExtension: CrudExtension = { Toolbar: GenerateTasks, RowActions: TaskRowActions };
