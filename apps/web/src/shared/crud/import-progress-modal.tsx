import { ImportJobState, RealtimeCmd, type EntityDeclaration, type ImportJob, type ImportJobProgress } from '@isps/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Modal, Progress, Statistic, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppEvent } from '../realtime/index.ts';
import { useCancelImportJob } from './api/cancel-import-job.ts';
import { useImportJob } from './api/import-job-status.ts';
import { crudKeys } from './api/keys.ts';

type Counts = Pick<ImportJob, 'state' | 'total' | 'done' | 'added' | 'failed'>;

/** The furthest of the counts known (the status call and the pushes arrive in any order). */
function furthest(...known: Array<Counts | null | undefined>): Counts {
  const given = known.filter((c): c is Counts => Boolean(c));
  const ended = given.find((c) => c.state !== ImportJobState.running);
  return ended ?? given.reduce((a, b) => (b.done > a.done ? b : a));
}

/**
 * An import under way: a bar of the rows handled with the added and refused counts (pushed over the real-time
 * channel, asked again every two seconds) and a Cancel button. Once the job ends its result is handed on.
 */
export function ImportProgressModal({ entity, started, onEnded }: { entity: EntityDeclaration; started: ImportJob; onEnded: (job: ImportJob) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const status = useImportJob(entity, started.jobId);
  const cancel = useCancelImportJob(entity);
  const [pushed, setPushed] = useState<ImportJobProgress | null>(null);
  const ended = useRef(false);

  const finish = (job: ImportJob) => {
    if (ended.current) return;
    ended.current = true;
    void client.invalidateQueries({ queryKey: crudKeys.all(entity) });
    onEnded(job);
  };

  useAppEvent('realtimeMessage', (pushedMessage) => {
    if (pushedMessage.cmd !== RealtimeCmd.importJob || pushedMessage.msgId !== started.jobId) return;
    const progress = pushedMessage.data as ImportJobProgress;
    setPushed(progress);
    // the push carries counts only: the rows' outcomes come with the status call
    if (progress.state !== ImportJobState.running) void status.refetch();
  });

  const job = status.data;
  useEffect(() => {
    if (job && job.state !== ImportJobState.running) finish(job);
  });

  const counts = furthest(started, job, pushed);
  const percent = counts.total > 0 ? Math.min(100, Math.floor((counts.done * 100) / counts.total)) : 0;
  const stop = () =>
    cancel.mutate(started.jobId, {
      onSuccess: finish,
      onError: (error) => void message.error(error.message),
    });

  return (
    <Modal
      open
      title={t('crud.importProgressTitle', { entity: t(entity.title) })}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      width={520}
      footer={
        <Button danger loading={cancel.isPending} onClick={stop}>
          {t('crud.importCancel')}
        </Button>
      }
    >
      <Progress percent={percent} status="active" aria-label={t('crud.importProgressLabel')} />
      <Typography.Paragraph type="secondary">{t('crud.importProgress', { done: counts.done, total: counts.total })}</Typography.Paragraph>
      <Flex gap={32} wrap>
        <Statistic title={t('crud.importAddedCount')} value={counts.added} />
        <Statistic title={t('crud.importFailedCount')} value={counts.failed} />
      </Flex>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
        {t('crud.importCancelHint')}
      </Typography.Paragraph>
    </Modal>
  );
}
