import { Form, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../shared/api/index.ts';
import { useSession } from '../../../shared/session/index.ts';
import { useCurrentUserDeparts } from '../api/get-current-user-departs.ts';
import { useSelectDepart } from '../api/select-depart.ts';

export interface DepartSelectDialogProps {
  open: boolean;
  onClose: () => void;
}

/** SPEC section 2: a user in several groups picks the current one; the current group is preselected. */
export function DepartSelectDialog({ open, onClose }: DepartSelectDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ orgCode: string }>();
  const departs = useCurrentUserDeparts(open);
  const select = useSelectDepart();
  const username = useSession((s) => s.userInfo?.username);
  const setUserInfo = useSession((s) => s.setUserInfo);
  const list = departs.data?.list;

  useEffect(() => {
    if (!open || !list) return;
    if (list.length === 0) {
      feedback().notify('warning', t('common.notice'), t('depart.noneSet'), 4);
      onClose();
      return;
    }
    form.setFieldsValue({ orgCode: departs.data?.orgCode ?? undefined });
  }, [open, list, departs.data?.orgCode, form, onClose, t]);

  async function submit() {
    const { orgCode } = await form.validateFields();
    const answer = await select.mutateAsync({ orgCode, username }).catch(() => null);
    if (!answer) return;
    if (!answer.success) {
      feedback().notify('warning', t('common.notice'), answer.message, 4);
      return;
    }
    if (answer.result?.userInfo) setUserInfo(answer.result.userInfo);
    feedback().notify('success', t('common.notice'), answer.message || t('depart.switched'), 3);
    onClose();
  }

  return (
    <Modal
      open={open && !!list?.length}
      title={t('departSelect.title')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={select.isPending}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical">
        <Form.Item name="orgCode" label={t('depart.label')} rules={[{ required: true, message: t('depart.required') }]}>
          <Select
            aria-label={t('depart.label')}
            options={(list ?? []).map((d) => ({ value: d.orgCode, label: d.departName }))}
            placeholder={t('depart.placeholder')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
