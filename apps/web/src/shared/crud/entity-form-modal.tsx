import { formFieldsOf, type EntityDeclaration } from '@isps/contract';
import { Alert, App, Col, Flex, Form, Grid, Modal, Row, Skeleton } from 'antd';
import { useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage, storedLanguage } from '../i18n/index.ts';
import { useTenantChooser } from '../permission/index.ts';
import { useAddEntity } from './api/add-entity.ts';
import { useEditEntity } from './api/edit-entity.ts';
import { useDetailLines } from './api/detail-lines.ts';
import { useEntityById } from './api/query-entity-by-id.ts';
import { CheckRuleTrial } from './check-rules-editor.tsx';
import type { FormAddonProps } from './crud-screen.tsx';
import { DetailTabs } from './detail-lines-editor.tsx';
import type { CrudRow } from './entity-fields.ts';
import { FormControl } from './field-control.tsx';
import { formPayload, initialFormValues } from './form-values.ts';
import { fieldRules } from './zod-rules.ts';

export interface EntityFormModalProps {
  entity: EntityDeclaration;
  mode: 'add' | 'edit';
  row: CrudRow | null;
  /** values the screen fixes (the dictionary of its items): sent, not editable */
  fixed?: Record<string, string>;
  /** controls beside fields, by field name */
  addons?: Readonly<Record<string, ComponentType<FormAddonProps>>>;
  onClose: () => void;
}

/** About the height of one labelled field, and of the dialog around the fields (title, buttons, margins). */
const FIELD_HEIGHT = 82;
const DIALOG_CHROME = 220;
/** controls that need the whole width, in one column or two */
const WIDE_WIDGETS = new Set(['textarea', 'json', 'checkRules']);

/**
 * Add or edit one row in a modal. Lists show some values masked (ID numbers): the edit of such a screen starts from the
 * stored row, read whole (as the server shows it to those who may edit), not from the list's row.
 */
export function EntityFormModal(props: EntityFormModalProps) {
  const { t } = useTranslation();
  const editing = props.mode === 'edit' && props.row !== null;
  const masked = editing && Object.values(props.entity.fields).some((f) => f.maskedInLists);
  const stored = useEntityById(props.entity, masked ? (props.row?.id ?? null) : null);
  // the edit of a row with details starts from its stored lines
  const withLines = editing && (props.entity.details?.length ?? 0) > 0;
  const lines = useDetailLines(props.entity, withLines ? (props.row?.id ?? null) : null);
  const row = masked ? stored.data : props.row;
  if (!masked && !withLines) return <EntityForm {...props} />;
  if (row && (!withLines || lines.data)) return <EntityForm {...props} row={{ ...row, ...lines.data }} />;
  const error = stored.error ?? lines.error;
  return (
    <Modal open title={t('crud.editTitle', { entity: t(props.entity.title) })} footer={null} onCancel={props.onClose} destroyOnHidden>
      {error ? <Alert type="error" showIcon title={error.message} /> : <Skeleton active />}
    </Modal>
  );
}

/** Add or edit one row in a modal, validated with the declaration's schemas; refusals of the server shown inside. */
function EntityForm({ entity, mode, row, fixed = {}, addons = {}, onClose }: EntityFormModalProps) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm();
  const [refusal, setRefusal] = useState<string | null>(null);
  const add = useAddEntity(entity);
  const edit = useEditEntity(entity);
  const saving = add.isPending || edit.isPending;
  // messages in the language the console shows (the same the server answers in)
  const lang = isLanguage(i18n.language) ? i18n.language : storedLanguage();
  const initialValues = useMemo(() => initialFormValues(entity, mode, row, fixed), [entity, mode, row, fixed]);
  const placesTenants = useTenantChooser();
  // a row's tenant is set by system administrators only
  const fields = formFieldsOf(entity).filter((name) => entity.fields[name] && !(name in fixed) && (placesTenants || !entity.fields[name].systemAdminOnly));

  // A form taller than the window takes two columns on a desktop (>= 1200 px), so it is read without scrolling.
  const desktop = Grid.useBreakpoint().xl === true;
  const [windowHeight] = useState(() => window.innerHeight);
  const hasDetails = (entity.details?.length ?? 0) > 0;
  const twoColumns = desktop && (hasDetails || fields.length * FIELD_HEIGHT + DIALOG_CHROME > windowHeight);
  const save = async () => {
    let values: Record<string, unknown>;
    try {
      values = (await form.validateFields()) as Record<string, unknown>;
    } catch {
      return;
    }
    // a detail's lines whole, with the ids of stored lines (no control of their own)
    for (const detail of entity.details ?? []) values[detail.name] = form.getFieldValue(detail.name) as unknown;
    setRefusal(null);
    const body = { ...formPayload(entity, mode, values, row?.id), ...fixed };
    try {
      const envelope = mode === 'add' ? await add.mutateAsync(body) : await edit.mutateAsync(body);
      void message.success(envelope.message || t('crud.save'));
      onClose();
    } catch (error) {
      setRefusal(error instanceof Error ? error.message : t('request.failed'));
    }
  };

  // SPEC section 5: discarding edits asks first.
  const requestClose = () => {
    if (!form.isFieldsTouched()) {
      onClose();
      return;
    }
    modal.confirm({
      title: t('crud.discardTitle'),
      content: t('crud.discardContent'),
      okText: t('crud.discard'),
      cancelText: t('crud.keepEditing'),
      okButtonProps: { danger: true },
      onOk: onClose,
    });
  };

  return (
    <Modal
      open
      title={t(mode === 'add' ? 'crud.addTitle' : 'crud.editTitle', { entity: t(entity.title) })}
      okText={t('crud.save')}
      cancelText={t('common.cancel')}
      onOk={() => void save()}
      onCancel={requestClose}
      confirmLoading={saving}
      mask={{ closable: false }}
      destroyOnHidden
      width={twoColumns || hasDetails ? 1000 : 640}
    >
      {refusal ? <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} /> : null}
      <Form form={form} name={`${entity.name}-form`} layout="vertical" initialValues={initialValues} onFinish={() => void save()} onValuesChange={() => setRefusal(null)}>
        <Row gutter={24}>
          {fields.map((name) => {
            const field = entity.fields[name]!;
            const label = t(field.label);
            const rules = fieldRules(field, { mode, label, lang });
            const required = Boolean(field.required) && (mode === 'add' || !field.writeOnly);
            const Addon = addons[name];
            return (
              <Col key={name} span={twoColumns && !WIDE_WIDGETS.has(field.widget.kind) ? 12 : 24}>
                {Addon ? (
                  // the field's own item (noStyle) reports its errors to the labelled item around the control and its addon
                  <Form.Item label={label} required={required} htmlFor={`${entity.name}-form_${name}`}>
                    <Flex gap={8}>
                      <div style={{ flex: 1, minWidth: 0 }}>
                        <Form.Item name={name} noStyle rules={rules} validateFirst dependencies={field.crossCheck ? [field.crossCheck.field] : undefined}>
                          <FormControl entity={entity} name={name} mode={mode} />
                        </Form.Item>
                      </div>
                      <Addon name={name} form={form} />
                    </Flex>
                  </Form.Item>
                ) : (
                  <Form.Item
                    name={name}
                    label={label}
                    rules={rules}
                    // a value checked against another field is checked again when that one changes
                    dependencies={field.crossCheck ? [field.crossCheck.field] : undefined}
                    required={required}
                    valuePropName={field.widget.kind === 'switch' ? 'value' : undefined}
                    validateFirst
                    extra={field.widget.kind === 'checkRules' ? <CheckRuleTrial name={name} /> : undefined}
                  >
                    <FormControl entity={entity} name={name} mode={mode} />
                  </Form.Item>
                )}
              </Col>
            );
          })}
        </Row>
        {hasDetails ? <DetailTabs entity={entity} formName={`${entity.name}-form`} lang={lang} /> : null}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
