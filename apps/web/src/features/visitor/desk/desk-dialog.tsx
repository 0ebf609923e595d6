import { IdcardOutlined, PrinterOutlined } from '@ant-design/icons';
import { EnrollmentStatus, PALM_HANDS, permissionCode, visitorEntity, type DeskLookup, type PalmHand } from '@isps/contract';
import { Alert, App, Button, Descriptions, Empty, Flex, Form, Input, Modal, Radio, Result, Segmented, Spin, Steps, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Authorized, usePermission } from '../../../shared/permission/index.ts';
import { useCancelDeskEnrollment, useDeskEnrollment, useStartDeskEnrollment } from './api/enroll-palm.ts';
import { useFindDeskVisitor } from './api/find-visitor.ts';
import { useIssueDeskCard } from './api/issue-card.ts';
import { useReadDeskIdCard } from './api/read-id-card.ts';
import { useVisitPass } from './api/visit-pass.ts';
import styles from './desk.module.css';
import { VisitPassCard, windowText } from './visit-pass-card.tsx';

type Visitor = DeskLookup['visitor'];

/** Step 1: the ID card read at the capture device (or typed), the visitor found and his visits of today. */
function IdCardStep({ onFound }: { onFound: (lookup: DeskLookup) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [idCard, setIdCard] = useState('');
  const [missing, setMissing] = useState<string | null>(null);
  const read = useReadDeskIdCard();
  const find = useFindDeskVisitor();

  const look = async (number: string) => {
    setMissing(null);
    if (number.trim() === '') return;
    try {
      const envelope = await find.mutateAsync(number.trim());
      if (!envelope.success) return setMissing(envelope.message);
      onFound(envelope.result);
    } catch {
      // the request layer has shown why
    }
  };
  const readCard = async () => {
    try {
      const envelope = await read.mutateAsync();
      if (!envelope.success) return void message.warning(envelope.message);
      setIdCard(envelope.result.idCard);
      await look(envelope.result.idCard);
    } catch {
      // the request layer has shown why
    }
  };

  return (
    <Form layout="vertical" name="visitor-desk-id-card" onFinish={() => void look(idCard)}>
      <Flex vertical gap={16}>
        <Button type="primary" size="large" icon={<IdcardOutlined />} loading={read.isPending} onClick={() => void readCard()} block>
          {t('visitorDesk.readIdCard')}
        </Button>
        <Form.Item label={t('visitorDesk.idCard')} htmlFor="visitor-desk-id-number" extra={t('visitorDesk.idCardHint')} style={{ marginBottom: 0 }}>
          <Flex gap={8}>
            <Input id="visitor-desk-id-number" value={idCard} onChange={(event) => setIdCard(event.target.value)} maxLength={32} autoComplete="off" allowClear />
            <Button htmlType="submit" loading={find.isPending} disabled={idCard.trim() === ''}>
              {t('visitorDesk.find')}
            </Button>
          </Flex>
        </Form.Item>
        {missing ? (
          <Alert
            type="warning"
            showIcon
            role="alert"
            title={missing}
            action={
              <Authorized code={permissionCode(visitorEntity, 'add')}>
                <Button size="small" onClick={() => void navigate('/vistor/list')}>
                  {t('visitorDesk.register')}
                </Button>
              </Authorized>
            }
          />
        ) : null}
      </Flex>
    </Form>
  );
}

/** The visitor found: who he is and what he holds (never his card number, only its masked form). */
function VisitorSummary({ visitor }: { visitor: Visitor }) {
  const { t } = useTranslation();
  const palm = (value: number) => t(value === 1 ? 'people.palm.registered' : 'people.palm.none');
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 2 }}
      items={[
        { key: 'name', label: t('visitor.field.name'), children: visitor.name },
        { key: 'idCard', label: t('visitor.field.idCard'), children: visitor.idCardMasked },
        { key: 'phone', label: t('visitor.field.phone'), children: visitor.phone },
        { key: 'card', label: t('people.field.cardNoMasked'), children: visitor.cardNoMasked ?? '—' },
        { key: 'palmLeft', label: t('people.field.palmLeft'), children: palm(visitor.palmLeft) },
        { key: 'palmRight', label: t('people.field.palmRight'), children: palm(visitor.palmRight) },
      ]}
    />
  );
}

/** Issues a door card: the number typed (or swiped on a desk reader acting as a keyboard), shown masked once saved. */
function IssueCard({ visitor, onIssued }: { visitor: Visitor; onIssued: (masked: string) => void }) {
  const { t } = useTranslation();
  const issue = useIssueDeskCard();
  const [cardNo, setCardNo] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = async () => {
    setRefusal(null);
    try {
      const envelope = await issue.mutateAsync({ visitorId: visitor.id, cardNo: cardNo.trim() });
      if (!envelope.success) return setRefusal(envelope.message);
      setCardNo('');
      onIssued(envelope.result.cardNoMasked);
    } catch (error) {
      if (error instanceof Error) setRefusal(error.message);
    }
  };
  return (
    <Form layout="vertical" name="visitor-desk-card" onFinish={() => void save()}>
      {refusal ? <Alert type="warning" showIcon role="alert" title={refusal} style={{ marginBottom: 12 }} /> : null}
      {visitor.cardNoMasked ? <Alert type="success" showIcon role="status" title={t('visitorDesk.cardIssued', { masked: visitor.cardNoMasked })} style={{ marginBottom: 12 }} /> : null}
      <Form.Item label={t('visitorDesk.cardNo')} htmlFor="visitor-desk-card-no" style={{ marginBottom: 0 }}>
        <Flex gap={8}>
          <Input.Password id="visitor-desk-card-no" value={cardNo} onChange={(event) => setCardNo(event.target.value)} maxLength={32} autoComplete="off" visibilityToggle={false} />
          <Button type="primary" htmlType="submit" loading={issue.isPending} disabled={cardNo.trim() === ''}>
            {t('visitorDesk.issue')}
          </Button>
        </Flex>
      </Form.Item>
    </Form>
  );
}

/** Enrols one palm at the capture device, with the progress people's enrollment shows. */
function EnrollPalm({ visitor, onEnrolled }: { visitor: Visitor; onEnrolled: (hand: PalmHand) => void }) {
  const { t } = useTranslation();
  const [hand, setHand] = useState<PalmHand>(visitor.palmLeft === 1 && visitor.palmRight !== 1 ? 'right' : 'left');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [enrollmentId, setEnrollmentId] = useState<string | null>(null);
  const start = useStartDeskEnrollment();
  const cancel = useCancelDeskEnrollment();
  const enrollment = useDeskEnrollment(enrollmentId);
  const status = enrollmentId ? (enrollment.data?.status ?? EnrollmentStatus.waiting) : null;
  const handText = t(`people.hand.${hand}`);

  // told once per enrollment: the summary it updates draws this step anew
  const told = useRef<string | null>(null);
  useEffect(() => {
    if (status !== EnrollmentStatus.enrolled || told.current === enrollmentId) return;
    told.current = enrollmentId;
    onEnrolled(hand);
  }, [status, hand, enrollmentId, onEnrolled]);

  const begin = async () => {
    setRefusal(null);
    try {
      const envelope = await start.mutateAsync({ id: visitor.id, hand });
      if (!envelope.success) return setRefusal(envelope.message);
      setEnrollmentId(envelope.result.id);
    } catch {
      // the request layer has shown why
    }
  };
  const stop = async () => {
    if (!enrollmentId) return;
    await cancel.mutateAsync(enrollmentId).catch(() => undefined);
    await enrollment.refetch();
  };

  if (status === EnrollmentStatus.waiting) {
    return (
      <Flex vertical align="center" gap={16} style={{ padding: '16px 0' }} role="status" aria-live="polite">
        <Spin size="large" />
        <Typography.Text>{t('people.enrollWaiting', { hand: handText, device: enrollment.data?.deviceName ?? '' })}</Typography.Text>
        <Button danger loading={cancel.isPending} onClick={() => void stop()}>
          {t('people.enrollCancel')}
        </Button>
      </Flex>
    );
  }
  if (status === EnrollmentStatus.enrolled) return <Result status="success" title={t('people.enrollDone', { hand: handText })} role="status" />;
  return (
    <Flex vertical gap={12}>
      {status === EnrollmentStatus.failed ? <Alert type="warning" showIcon role="alert" title={t('people.enrollFailed')} description={t(`people.enrollFailure.${enrollment.data?.reason ?? 'timeout'}`)} /> : null}
      {refusal ? <Alert type="warning" showIcon role="alert" title={refusal} /> : null}
      <Radio.Group value={hand} onChange={(event) => setHand(event.target.value as PalmHand)} optionType="button" buttonStyle="solid" aria-label={t('people.enrollHand')}>
        {PALM_HANDS.map((h) => (
          <Radio.Button key={h} value={h}>
            {t(`people.hand.${h}`)}
          </Radio.Button>
        ))}
      </Radio.Group>
      <div>
        <Button type="primary" loading={start.isPending} onClick={() => void begin()}>
          {t('people.enrollStart')}
        </Button>
      </div>
    </Flex>
  );
}

/** Step 2: a door card or a palm for the visitor, as the desk's permissions allow. */
function CredentialStep({ visitor, onChange }: { visitor: Visitor; onChange: (visitor: Visitor) => void }) {
  const { t } = useTranslation();
  const mayIssue = usePermission(permissionCode(visitorEntity, 'issueCard'));
  const mayEnroll = usePermission(permissionCode(visitorEntity, 'enroll'));
  const [mode, setMode] = useState<'card' | 'palm'>(mayIssue || !mayEnroll ? 'card' : 'palm');
  if (!mayIssue && !mayEnroll) return <Alert type="info" showIcon title={t('visitorDesk.noCredentialRight')} />;
  return (
    <Flex vertical gap={16}>
      {mayIssue && mayEnroll ? (
        <Segmented
          value={mode}
          onChange={(value) => setMode(value as 'card' | 'palm')}
          options={[
            { value: 'card', label: t('visitorDesk.issueCard') },
            { value: 'palm', label: t('visitorDesk.enrollPalm') },
          ]}
        />
      ) : null}
      {mode === 'card' && mayIssue ? (
        <IssueCard visitor={visitor} onIssued={(masked) => onChange({ ...visitor, cardNoMasked: masked })} />
      ) : (
        <EnrollPalm visitor={visitor} onEnrolled={(hand) => onChange({ ...visitor, ...(hand === 'left' ? { palmLeft: 1 } : { palmRight: 1 }) })} />
      )}
    </Flex>
  );
}

/** Step 3: the pass of the chosen visit, printable. */
function PassStep({ visitId }: { visitId: string }) {
  const { t } = useTranslation();
  const pass = useVisitPass(visitId);
  if (pass.isLoading) return <Spin style={{ display: 'block', margin: '32px auto' }} />;
  if (pass.isError || !pass.data) {
    return (
      <Result
        status="warning"
        title={pass.error instanceof Error ? pass.error.message : t('visitorDesk.passFailed')}
        extra={
          <Button onClick={() => void pass.refetch()}>{t('common.retry')}</Button>
        }
      />
    );
  }
  return (
    <>
      <VisitPassCard pass={pass.data} />
      {/* what the print shows: the pass alone, outside the dialog (desk.module.css) */}
      {createPortal(
        <div className={styles.printCopy}>
          <VisitPassCard pass={pass.data} />
        </div>,
        document.body,
      )}
    </>
  );
}

interface DeskDialogProps {
  /** the visit the desk was opened for (a row's Arrival button); the toolbar's button opens it for any visit */
  visitId?: string;
  onClose: () => void;
}

/**
 * The arrivals desk: read the visitor's ID card (or type its number), see the visitor and his visits of today, issue
 * a card or enrol a palm, then show and print the pass of his visit.
 */
export function DeskDialog({ visitId, onClose }: DeskDialogProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState(0);
  const [lookup, setLookup] = useState<DeskLookup | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const visits = lookup?.visits ?? [];
  const opened = visitId && lookup ? visits.some((v) => v.id === visitId) : true;

  const found = (result: DeskLookup) => {
    setLookup(result);
    const preferred = result.visits.find((v) => v.id === visitId) ?? result.visits[0];
    setChosen(preferred?.id ?? null);
  };
  const again = () => {
    setLookup(null);
    setChosen(null);
    setStep(0);
  };

  const footer = (
    <Flex gap={8} justify="end" wrap>
      {step > 0 ? <Button onClick={() => setStep(step - 1)}>{t('visitorDesk.back')}</Button> : null}
      {step === 0 && lookup ? <Button onClick={again}>{t('visitorDesk.newVisitor')}</Button> : null}
      {step < 2 ? (
        <Button type="primary" disabled={!lookup || (step === 1 && !chosen)} onClick={() => setStep(step + 1)}>
          {step === 1 ? t('visitorDesk.showPass') : t('visitorDesk.next')}
        </Button>
      ) : (
        <>
          <Button onClick={again}>{t('visitorDesk.newVisitor')}</Button>
          <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
            {t('visitorDesk.print')}
          </Button>
        </>
      )}
    </Flex>
  );

  return (
    <Modal open title={t('visitorDesk.title')} onCancel={onClose} footer={footer} mask={{ closable: false }} destroyOnHidden width={720}>
      <Steps
        size="small"
        current={step}
        style={{ marginBottom: 20 }}
        items={[{ title: t('visitorDesk.stepIdCard') }, { title: t('visitorDesk.stepCredential') }, { title: t('visitorDesk.stepPass') }]}
      />
      {step === 0 ? (
        lookup ? (
          <Flex vertical gap={16}>
            <VisitorSummary visitor={lookup.visitor} />
            {lookup.visitor.status === 2 ? <Alert type="warning" showIcon title={t('visitorDesk.frozen')} /> : null}
            {!opened ? <Alert type="warning" showIcon title={t('visitorDesk.otherVisit')} /> : null}
            <Typography.Text strong>{t('visitorDesk.todayVisits')}</Typography.Text>
            {visits.length === 0 ? (
              <Empty description={t('visitorDesk.noVisits')} />
            ) : (
              <Radio.Group value={chosen} onChange={(event) => setChosen(event.target.value as string)} aria-label={t('visitorDesk.todayVisits')}>
                <Flex vertical gap={8}>
                  {visits.map((v) => (
                    <Radio key={v.id} value={v.id}>
                      {t('visitorDesk.visitLine', { window: windowText(v.startTime, v.endTime), host: v.hostName })}
                      {v.doors.length > 0 ? ` · ${v.doors.join(t('visitorDesk.doorSeparator'))}` : ''}
                    </Radio>
                  ))}
                </Flex>
              </Radio.Group>
            )}
          </Flex>
        ) : (
          <IdCardStep onFound={found} />
        )
      ) : null}
      {step === 1 && lookup ? <CredentialStep visitor={lookup.visitor} onChange={(visitor) => setLookup({ ...lookup, visitor })} /> : null}
      {step === 2 && chosen ? <PassStep visitId={chosen} /> : null}
    </Modal>
  );
}
