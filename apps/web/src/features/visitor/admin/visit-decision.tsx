import { permissionCode, VisitState } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CrudExtensionProps, CrudRow } from '../../../shared/crud/index.ts';
import { Authorized } from '../../../shared/permission/index.ts';
import { approveVisit, refuseVisit, useApprovableDoors } from '../api/decide-visit.ts';

/** The host's decision on a visitor's request (rows awaiting it only): approve with doors, or refuse with a reason. */
export function VisitDecision({ entity, row, refresh }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState<'approve' | 'refuse' | null>(null);
  const [doorIds, setDoorIds] = useState<string[]>([]);
  const [reason, setReason] = useState('');
  const doors = useApprovableDoors(open === 'approve');
  const done = (envelope: { message: string }) => {
    void message.success(envelope.message);
    setOpen(null);
    refresh();
  };
  const approve = useMutation({ mutationFn: approveVisit, onSuccess: done, onError: (error) => void message.error(error.message) });
  const refuse = useMutation({ mutationFn: refuseVisit, onSuccess: done, onError: (error) => void message.error(error.message) });
  if (row.state !== VisitState.requested) return null;
  const when = String(row.startTime ?? '');
  return (
    <Space size={0}>
      <Authorized code={permissionCode(entity, 'approve')}>
        <Button type="link" size="small" data-command="approve" onClick={() => { setDoorIds([]); setOpen('approve'); }}>
          {t('visitDecision.approve')}
        </Button>
      </Authorized>
      <Authorized code={permissionCode(entity, 'refuse')}>
        <Button type="link" size="small" danger data-command="refuse" onClick={() => { setReason(''); setOpen('refuse'); }}>
          {t('visitDecision.refuse')}
        </Button>
      </Authorized>
      <Modal
        open={open === 'approve'}
        title={t('visitDecision.approveTitle', { time: when })}
        okText={t('visitDecision.approve')}
        cancelText={t('common.cancel')}
        confirmLoading={approve.isPending}
        onCancel={() => setOpen(null)}
        onOk={() => approve.mutate({ id: row.id, doorIds })}
        destroyOnHidden
      >
        <p>{t('visitDecision.approveHint')}</p>
        <Form layout="vertical">
          <Form.Item label={t('visit.field.doorIds')} htmlFor="visit-approve-doors">
            <Select
              id="visit-approve-doors"
              mode="multiple"
              value={doorIds}
              onChange={setDoorIds}
              loading={doors.isLoading}
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('crud.select')}
              options={(doors.data ?? []).map((d) => ({ value: d.id, label: d.doorName }))}
            />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={open === 'refuse'}
        title={t('visitDecision.refuseTitle', { time: when })}
        okText={t('visitDecision.refuse')}
        okButtonProps={{ danger: true }}
        cancelText={t('common.cancel')}
        confirmLoading={refuse.isPending}
        onCancel={() => setOpen(null)}
        onOk={() => refuse.mutate({ id: row.id, reason })}
        destroyOnHidden
      >
        <Form layout="vertical">
          <Form.Item label={t('visitDecision.reason')} htmlFor="visit-refuse-reason">
            <Input.TextArea id="visit-refuse-reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
