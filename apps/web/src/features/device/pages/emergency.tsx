import { EMERGENCY_INTENSITY_MAX, EmergencyPerm, type EmergencySetting } from '@isps/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, InputNumber, Select, Skeleton, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../shared/permission/index.ts';
import { emergencySettingKey, useDoorChoices, useEmergencySetting, useSaveEmergencySetting } from '../api/emergency-setting.ts';

/** The emergency scenario setting: whether quake readings run it, from which intensity, and which doors it holds open. */
export default function EmergencySettingPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const setting = useEmergencySetting();
  const doors = useDoorChoices();
  const save = useSaveEmergencySetting();
  const mayEdit = usePermission(EmergencyPerm.edit);

  const submit = async (values: EmergencySetting) => {
    const answer = await save.mutateAsync(values);
    if (!answer.success) return;
    void message.success(answer.message);
    client.setQueryData(emergencySettingKey, answer.result);
  };

  return (
    <Card title={t('menu.device.emergency')} variant="borderless">
      <Skeleton active loading={!setting.data}>
        {setting.data ? (
          <Form<EmergencySetting> layout="vertical" initialValues={setting.data} onFinish={submit} disabled={!mayEdit} style={{ maxWidth: 640 }}>
            <Form.Item name="enabled" label={t('emergency.setting.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="threshold" label={t('emergency.setting.threshold')} extra={t('emergency.setting.thresholdHelp')} rules={[{ required: true }]}>
              <InputNumber min={1} max={EMERGENCY_INTENSITY_MAX} precision={0} />
            </Form.Item>
            <Form.Item name="egressDoorIds" label={t('emergency.setting.egressDoors')}>
              <Select
                mode="multiple"
                allowClear
                loading={doors.isLoading}
                placeholder={t('emergency.setting.egressPlaceholder')}
                optionFilterProp="label"
                options={(doors.data ?? []).map((door) => ({ value: door.id, label: door.deviceName ? `${door.doorName} · ${door.deviceName}` : door.doorName }))}
              />
            </Form.Item>
            {mayEdit ? (
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {t('emergency.setting.save')}
              </Button>
            ) : null}
          </Form>
        ) : null}
      </Skeleton>
    </Card>
  );
}
