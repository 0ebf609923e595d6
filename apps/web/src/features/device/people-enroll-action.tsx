import { EnrollmentStatus, permissionCode, PALM_HANDS, type PalmHand } from '@isps/contract';
import { Alert, App, Button, Flex, Form, Modal, Radio, Result, Select, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CrudExtensionProps, CrudRow } from '../../shared/crud/index.ts';
import { Authorized } from '../../shared/permission/index.ts';
import { useCaptureDevices } from './api/capture-devices.ts';
import { useCancelEnrollment, useEnrollment, useStartEnrollment } from './api/enroll-palm.ts';

interface EnrollPalmDialogProps {
  row: CrudRow;
  onClose: () => void;
  /** a hand was registered: the list shows it */
  onEnrolled: () => void;
}

/**
 * Enrolls one palm of a person at a capture device: pick the device (the current capture device first) and the hand,
 * start, wait while the person lays the hand on the reader (or cancel), then the outcome or the device's reason.
 */
export function EnrollPalmDialog({ row, onClose, onEnrolled }: EnrollPalmDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const capture = useCaptureDevices();
  const [deviceId, setDeviceId] = useState<string | undefined>(undefined);
  const [hand, setHand] = useState<PalmHand>(Number(row.palmLeft) === 1 && Number(row.palmRight) !== 1 ? 'right' : 'left');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [enrollmentId, setEnrollmentId] = useState<string | null>(null);
  const start = useStartEnrollment();
  const cancel = useCancelEnrollment();
  const enrollment = useEnrollment(enrollmentId);
  const status = enrollmentId ? (enrollment.data?.status ?? EnrollmentStatus.waiting) : null;
  const told = useRef<string | null>(null);

  const records = capture.data?.records ?? [];
  const chosen = deviceId ?? capture.data?.capDevice ?? undefined;
  const device = records.find((r) => r.id === chosen);
  const handText = t(`people.hand.${hand}`);

  useEffect(() => {
    if (status === EnrollmentStatus.enrolled && told.current !== enrollmentId) {
      told.current = enrollmentId;
      onEnrolled();
    }
  }, [status, enrollmentId, onEnrolled]);

  const begin = async () => {
    setRefusal(null);
    try {
      const envelope = await start.mutateAsync({ id: row.id, hand, ...(chosen ? { deviceId: chosen } : {}) });
      if (!envelope.success) return setRefusal(envelope.message);
      setEnrollmentId(envelope.result.id);
    } catch {
      // the request layer has shown why
    }
  };
  const stop = async () => {
    if (!enrollmentId) return;
    try {
      await cancel.mutateAsync(enrollmentId);
    } catch (error) {
      // it ended meanwhile: its outcome shows
      if (error instanceof Error) void message.info(error.message);
    }
    await enrollment.refetch();
  };
  const close = () => {
    if (status === EnrollmentStatus.waiting) void stop();
    onClose();
  };
  const again = () => {
    setEnrollmentId(null);
    setRefusal(null);
  };

  const footer =
    status === null ? (
      <Flex gap={8} justify="end">
        <Button onClick={close}>{t('common.cancel')}</Button>
        <Button type="primary" loading={start.isPending} disabled={!chosen} onClick={() => void begin()}>
          {t('people.enrollStart')}
        </Button>
      </Flex>
    ) : status === EnrollmentStatus.waiting ? (
      <Flex justify="end">
        <Button danger loading={cancel.isPending} onClick={() => void stop()}>
          {t('people.enrollCancel')}
        </Button>
      </Flex>
    ) : (
      <Flex gap={8} justify="end">
        {status === EnrollmentStatus.failed ? <Button onClick={again}>{t('people.enrollAgain')}</Button> : null}
        <Button type="primary" onClick={onClose} autoFocus>
          {t('people.enrollClose')}
        </Button>
      </Flex>
    );

  return (
    <Modal open title={t('people.enrollTitle', { name: String(row.name ?? '') })} onCancel={close} footer={footer} mask={{ closable: false }} destroyOnHidden width={520}>
      {status === null ? (
        <Form layout="vertical" name="people-enroll" onFinish={() => void begin()}>
          {refusal ? <Alert type="warning" showIcon title={refusal} style={{ marginBottom: 16 }} /> : null}
          {capture.isSuccess && records.length === 0 ? <Alert type="info" showIcon title={t('people.enrollNoDevice')} style={{ marginBottom: 16 }} /> : null}
          <Form.Item label={t('people.enrollDevice')} htmlFor="people-enroll-device">
            <Select
              id="people-enroll-device"
              value={chosen}
              loading={capture.isLoading}
              onChange={(value: string) => {
                setDeviceId(value);
                setRefusal(null);
              }}
              options={records.map((r) => ({ value: r.id, label: `${r.title} (${r.sn})` }))}
              showSearch={{ optionFilterProp: 'label' }}
            />
          </Form.Item>
          <Form.Item label={t('people.enrollHand')}>
            <Radio.Group value={hand} onChange={(event) => setHand(event.target.value as PalmHand)} optionType="button" buttonStyle="solid" aria-label={t('people.enrollHand')}>
              {PALM_HANDS.map((h) => (
                <Radio.Button key={h} value={h}>
                  {t(`people.hand.${h}`)}
                </Radio.Button>
              ))}
            </Radio.Group>
          </Form.Item>
        </Form>
      ) : status === EnrollmentStatus.waiting ? (
        <Flex vertical align="center" gap={16} style={{ padding: '24px 0' }} role="status" aria-live="polite">
          <Spin size="large" />
          <Typography.Text>{t('people.enrollWaiting', { hand: handText, device: enrollment.data?.deviceName || device?.title || '' })}</Typography.Text>
        </Flex>
      ) : status === EnrollmentStatus.enrolled ? (
        <Result status="success" title={t('people.enrollDone', { hand: handText })} role="status" />
      ) : (
        <Result status="warning" title={t('people.enrollFailed')} subTitle={t(`people.enrollFailure.${enrollment.data?.reason ?? 'timeout'}`)} role="alert" />
      )}
    </Modal>
  );
}

/** The row's "Enroll palm" button (permission `enroll`), opening the enrollment dialog. */
export function PeopleEnrollAction({ entity, row, refresh }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Authorized code={permissionCode(entity, 'enroll')}>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        {t('people.enroll')}
      </Button>
      {open ? <EnrollPalmDialog row={row} onClose={() => setOpen(false)} onEnrolled={refresh} /> : null}
    </Authorized>
  );
}
