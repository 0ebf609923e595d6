import {
  ANNOUNCEMENT_TYPES,
  ANNOUNCEMENT_UPLOAD_BIZ,
  UploadKinds,
  MsgCategory,
  MsgType,
  OPEN_TYPES,
  PRIORITIES,
  UPLOAD_MAX_BYTES,
  announcementProblem,
  splitIds,
  translate,
  type Announcement,
  type AnnouncementInput,
} from '@isps/contract';
import { Alert, App, Col, DatePicker, Form, Input, Modal, Radio, Row, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadFile } from '../../../shared/api/index.ts';
import { storedLanguage } from '../../../shared/i18n/index.ts';
import { WIRE_TIME_FORMAT, toPickerValue, toWire } from '../../../shared/time/index.ts';
import { RichTextEditor } from '../../../shared/ui/index.ts';
import { saveAnnouncement, useAnnouncementAction } from '../api/announcement-authoring.ts';
import { useAddressBook } from '../api/list-address-book.ts';
import { AnnouncementFileUpload } from './announcement-file-upload.tsx';

const TIME_FORMAT = WIRE_TIME_FORMAT;
const MAX_MB = UPLOAD_MAX_BYTES / 1024 / 1024;

/** Images pasted into the content go to the announcement folder; the editor shows them at their static address. */
const uploadContentImage = async (file: File) => (await uploadFile(file, { biz: ANNOUNCEMENT_UPLOAD_BIZ, extensions: UploadKinds.image })).url;

interface FormValues extends Omit<AnnouncementInput, 'startTime' | 'endTime' | 'userIds'> {
  startTime?: Dayjs | null;
  endTime?: Dayjs | null;
  userIds?: string[];
}

function toFormValues(row: Announcement | null): FormValues {
  if (!row) return { msgCategory: MsgCategory.announcement, msgType: MsgType.all, priority: 'L', type: 'word', openType: 'component' };
  return {
    ...row,
    startTime: toPickerValue(row.startTime) ?? null,
    endTime: toPickerValue(row.endTime) ?? null,
    userIds: splitIds(row.userIds),
  };
}

function toInput(values: FormValues): AnnouncementInput {
  const text = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);
  return {
    titile: text(values.titile),
    msgAbstract: text(values.msgAbstract),
    msgCategory: values.msgCategory,
    type: values.type,
    theme: text(values.theme),
    priority: values.priority,
    msgType: values.msgType,
    userIds: values.msgType === MsgType.user ? (values.userIds ?? []).join(',') : null,
    // the author picks in their own zone; the wire takes the site's
    startTime: values.startTime ? toWire(values.startTime) : null,
    endTime: values.endTime ? toWire(values.endTime) : null,
    channels: text(values.channels),
    backgroundImage: text(values.backgroundImage),
    msgContent: values.msgContent ?? null,
    attachments: text(values.attachments),
    video: text(values.video),
    openType: values.openType || null,
    openPage: text(values.openPage),
  };
}

/** Writes or changes an announcement (a draft until it is released). SPEC section 5 rules come from the contract. */
export function AnnouncementFormModal({ open, row, onClose }: { open: boolean; row: Announcement | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [problem, setProblem] = useState<string | null>(null);
  const save = useAnnouncementAction(saveAnnouncement);
  const msgType = Form.useWatch('msgType', form);
  const type = Form.useWatch('type', form);
  const openType = Form.useWatch('openType', form);
  const users = useAddressBook(open && msgType === MsgType.user);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(toFormValues(row));
  }, [open, row, form]);

  const close = () => {
    setProblem(null);
    onClose();
  };

  const submit = async () => {
    const input = toInput(form.getFieldsValue(true) as FormValues);
    const key = announcementProblem(input);
    if (key) {
      setProblem(translate(storedLanguage(), key));
      return;
    }
    setProblem(null);
    try {
      const answer = await save.mutateAsync(row ? { ...input, id: row.id } : input);
      void message.success(answer || t('crud.save'));
      close();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : t('request.failed'));
    }
  };

  const required = { required: true, message: '' };
  return (
    <Modal
      open={open}
      // the spec's 60% on a desktop; a phone needs the whole width for the editor's toolbar
      width={{ xs: '100%', md: '80%', xl: '60%' }}
      title={t(row ? 'crud.editTitle' : 'crud.addTitle', { entity: t('announcement.entity') })}
      okText={t('crud.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
      rootClassName="announcement-form-modal"
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} role="alert" />}
      <Form form={form} name="announcement-form" layout="vertical" requiredMark>
        <Row gutter={16}>
          <Col xs={24} md={16}>
            <Form.Item name="titile" label={t('announcement.field.titile')} rules={[required]}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="msgCategory" label={t('announcement.field.msgCategory')} rules={[required]}>
              <Radio.Group
                options={[MsgCategory.announcement, MsgCategory.systemMessage].map((v) => ({ value: v, label: t(`notices.category.${v}`) }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="msgAbstract" label={t('announcement.field.msgAbstract')} extra={t('announcement.msgAbstractHint')}>
              <Input.TextArea maxLength={500} autoSize={{ minRows: 1, maxRows: 3 }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="type" label={t('announcement.field.type')}>
              <Radio.Group options={ANNOUNCEMENT_TYPES.map((v) => ({ value: v, label: t(`announcement.type.${v}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="priority" label={t('announcement.field.priority')}>
              <Radio.Group options={PRIORITIES.map((v) => ({ value: v, label: t(`notices.priority.${v}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="theme" label={t('announcement.field.theme')}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="msgType" label={t('announcement.field.msgType')} rules={[required]}>
              <Radio.Group options={[MsgType.all, MsgType.user].map((v) => ({ value: v, label: t(`announcement.msgType.${v}`) }))} />
            </Form.Item>
          </Col>
          {msgType === MsgType.user && (
            <Col xs={24} md={16}>
              <Form.Item name="userIds" label={t('announcement.field.userIds')} rules={[required]}>
                <Select
                  mode="multiple"
                  loading={users.isLoading}
                  optionFilterProp="label"
                  options={(users.data ?? []).map((u) => ({ value: u.id, label: `${u.realname ?? ''} (${u.username ?? u.id})` }))}
                />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} md={8}>
            <Form.Item name="startTime" label={t('announcement.field.startTime')}>
              <DatePicker showTime format={TIME_FORMAT} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="endTime" label={t('announcement.field.endTime')}>
              <DatePicker showTime format={TIME_FORMAT} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="channels" label={t('announcement.field.channels')} extra={t('announcement.channelsHint')}>
              <Input maxLength={255} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="msgContent" label={t('announcement.field.msgContent')}>
              <RichTextEditor aria-label={t('announcement.field.msgContent')} uploadImage={uploadContentImage} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="backgroundImage" label={t('announcement.field.backgroundImage')} extra={t('announcement.imageHint', { max: MAX_MB })}>
              <AnnouncementFileUpload kinds={['image']} buttonText={t('announcement.uploadImage')} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="attachments" label={t('announcement.field.attachments')} extra={t('announcement.filesHint', { max: MAX_MB })}>
              <AnnouncementFileUpload kinds={['document', 'image']} multiple buttonText={t('announcement.uploadFiles')} />
            </Form.Item>
          </Col>
          {type === 'video' && (
            <Col xs={24} md={12}>
              <Form.Item name="video" label={t('announcement.field.video')} rules={[required]} extra={t('announcement.videoHint', { max: MAX_MB })}>
                <AnnouncementFileUpload kinds={['video']} buttonText={t('announcement.uploadVideo')} />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} md={12}>
            <Form.Item name="openType" label={t('announcement.field.openType')}>
              <Radio.Group options={OPEN_TYPES.map((v) => ({ value: v, label: t(`announcement.openType.${v}`) }))} />
            </Form.Item>
          </Col>
          {(openType === 'url' || openType === 'component') && (
            <Col xs={24} md={12}>
              <Form.Item name="openPage" label={t('announcement.field.openPage')} extra={openType === 'component' ? t('announcement.openPageComponentHint') : undefined}>
                <Input maxLength={255} />
              </Form.Item>
            </Col>
          )}
        </Row>
      </Form>
    </Modal>
  );
}
