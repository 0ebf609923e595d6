import { CabinetAttribute, cabinetAllocationForm, MAX_CABINET_HOLDERS, type AllocateCabinetBody } from '@isps/contract';
import { App, DatePicker, Form, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { EntitySelect } from '../../../shared/crud/index.ts';
import { toPickerValue, toWire } from '../../../shared/time/index.ts';
import { useAllocateCabinet } from '../api/allocate-cabinet.ts';

/** the people picker answers to allocators (storage:cabinet:allocate), whether or not they may read the people list */
const ALLOCATION_PICKER = { owner: cabinetAllocationForm, field: 'peopleIds' } as const;

/** What the dialog needs of a cabinet: a list row or a tile of the cabinet tree. */
export interface AllocatableCabinet {
  id: string;
  cabinetNo: number | string;
  /** 1: one person only */
  attribute?: number;
  /** the current holders, to start from */
  peopleIds?: readonly string[];
  expireTime?: string | null;
}

interface AllocateValues {
  peopleIds: string[];
  expireTime?: Dayjs | null;
}

/** A list row's holders as the dialog starts from them: the link field comes as `a,b` or a list. */
export function holderIdsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String).filter(Boolean);
  return typeof value === 'string' ? value.split(',').filter(Boolean) : [];
}

/**
 * Allocates one cabinet: the people it goes to (one for a one-person cabinet) and, optionally, until when. The server's
 * answer is shown as it is: done closes the dialog and the lists read again; a refusal stays, as a warning, with the
 * dialog open so the choice can be changed.
 */
export function AllocateCabinetDialog({ cabinet, onClose, onAllocated }: { cabinet: AllocatableCabinet; onClose: () => void; onAllocated?: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<AllocateValues>();
  const allocate = useAllocateCabinet();
  const single = cabinet.attribute === CabinetAttribute.single;
  const holders = [...(cabinet.peopleIds ?? [])];

  const submit = async (values: AllocateValues) => {
    const body: AllocateCabinetBody = { id: cabinet.id, peopleIds: values.peopleIds, expireTime: values.expireTime ? toWire(values.expireTime) : null };
    try {
      const envelope = await allocate.mutateAsync(body);
      if (!envelope.success) return void message.warning(envelope.message);
      void message.success(envelope.message);
      onAllocated?.();
      onClose();
    } catch {
      // the request layer has shown why; the dialog stays for another try
    }
  };

  return (
    <Modal
      open
      title={t('cabinet.allocateTitle', { name: String(cabinet.cabinetNo) })}
      okText={t('cabinet.allocate')}
      cancelText={t('common.cancel')}
      confirmLoading={allocate.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<AllocateValues>
        form={form}
        layout="vertical"
        name={`allocate-${cabinet.id}`}
        initialValues={{ peopleIds: single ? holders.slice(0, 1) : holders, expireTime: cabinet.expireTime ? toPickerValue(cabinet.expireTime, 'datetime') : null }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          name="peopleIds"
          label={t('cabinet.allocatePeople')}
          extra={single ? t('cabinetAllocate.onePerson') : undefined}
          rules={[{ required: true, type: 'array', min: 1, message: t('cabinetAllocate.peopleRequired') }]}
        >
          <EntitySelect entityName="people" labelField="name" multiple maxCount={single ? 1 : MAX_CABINET_HOLDERS} picker={ALLOCATION_PICKER} />
        </Form.Item>
        <Form.Item name="expireTime" label={t('cabinet.allocateExpire')}>
          <DatePicker
            showTime
            style={{ width: '100%' }}
            disabledDate={(day) => day.isBefore(dayjs(), 'day')}
            // Enter takes the typed time; it must not also submit the half-filled form
            onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
