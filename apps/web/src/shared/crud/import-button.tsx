import { UploadOutlined } from '@ant-design/icons';
import { importInitialFields, isImportJob, type EntityDeclaration, type ImportJob, type ImportReport } from '@isps/contract';
import { App, Button, Form, Modal, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage, storedLanguage } from '../i18n/index.ts';
import { useImportEntities } from './api/import-entities.ts';
import { FormControl } from './field-control.tsx';
import { ImportProgressModal } from './import-progress-modal.tsx';
import { fieldRules } from './zod-rules.ts';

const XLSX = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The toolbar's import: picks an xlsx file, follows the server's import job (progress, cancel) and hands its
 * row-by-row report on. Screens whose rows need a password the export never carries ask first for the initial one
 * those rows get, checked like the form.
 */
export function ImportButton({ entity, onReport }: { entity: EntityDeclaration; onReport: (report: ImportReport) => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const importer = useImportEntities(entity);
  const [asking, setAsking] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [missingFile, setMissingFile] = useState(false);
  const [job, setJob] = useState<ImportJob | null>(null);
  const [form] = Form.useForm<Record<string, string>>();
  const initialFields = importInitialFields(entity);
  const lang = isLanguage(i18n.language) ? i18n.language : storedLanguage();

  const run = async (chosen: File, initial: Record<string, string> = {}) => {
    try {
      const envelope = await importer.mutateAsync({ file: chosen, initial });
      setAsking(false);
      if (isImportJob(envelope.result)) setJob(envelope.result);
      else onReport(envelope.result);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : t('request.failed'));
    }
  };

  const progress = job ? (
    <ImportProgressModal
      entity={entity}
      started={job}
      onEnded={(ended) => {
        setJob(null);
        onReport(ended);
      }}
    />
  ) : null;

  if (initialFields.length === 0) {
    return (
      <>
        <Upload
          accept={XLSX}
          showUploadList={false}
          beforeUpload={(chosen) => {
            void run(chosen);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={importer.isPending}>
            {t('crud.import')}
          </Button>
        </Upload>
        {progress}
      </>
    );
  }

  const submit = async () => {
    setMissingFile(!file);
    let values: Record<string, string>;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    if (file) await run(file, values);
  };

  const open = () => {
    form.resetFields();
    setFile(null);
    setMissingFile(false);
    setAsking(true);
  };

  return (
    <>
      <Button icon={<UploadOutlined />} onClick={open}>
        {t('crud.import')}
      </Button>
      {asking ? (
        <Modal
          open
          title={t('crud.importAskTitle', { entity: t(entity.title) })}
          okText={t('crud.import')}
          cancelText={t('common.cancel')}
          onOk={() => void submit()}
          onCancel={() => setAsking(false)}
          confirmLoading={importer.isPending}
          destroyOnHidden
          width={520}
        >
          <Typography.Paragraph type="secondary">{t('crud.importInitialHint', { fields: initialFields.map((name) => t(entity.fields[name]?.label ?? name)).join(', ') })}</Typography.Paragraph>
          <Form form={form} name={`${entity.name}-import`} layout="vertical" onFinish={() => void submit()}>
            {initialFields.map((name) => {
              const field = entity.fields[name]!;
              const label = t('crud.importInitialLabel', { field: t(field.label) });
              return (
                <Form.Item key={name} name={name} label={label} rules={fieldRules(field, { mode: 'add', label: t(field.label), lang })} required validateFirst>
                  <FormControl entity={entity} name={name} mode="add" />
                </Form.Item>
              );
            })}
            <Form.Item label={t('crud.importFile')} required validateStatus={missingFile ? 'error' : undefined} help={missingFile ? t('crud.importFileMissing') : undefined}>
              <Upload
                accept={XLSX}
                maxCount={1}
                fileList={file ? [{ uid: 'chosen', name: file.name, status: 'done' }] : []}
                onRemove={() => setFile(null)}
                beforeUpload={(chosen) => {
                  setFile(chosen);
                  setMissingFile(false);
                  return false;
                }}
              >
                <Button icon={<UploadOutlined />}>{t('crud.importChooseFile')}</Button>
              </Upload>
            </Form.Item>
            <button type="submit" hidden aria-hidden tabIndex={-1} />
          </Form>
        </Modal>
      ) : null}
      {progress}
    </>
  );
}
