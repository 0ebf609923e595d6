import { IdcardOutlined } from '@ant-design/icons';
import { peopleEntity, permissionCode } from '@isps/contract';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FormAddonProps } from '../../shared/crud/index.ts';
import { Authorized } from '../../shared/permission/index.ts';
import { useReadIdCard } from './api/read-id-card.ts';

/** Beside the ID card field: reads the card on the capture device into the field, or warns 'No ID card detected'. */
export function ReadIdCardButton({ name, form }: FormAddonProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const read = useReadIdCard();
  const run = async () => {
    try {
      const envelope = await read.mutateAsync();
      if (!envelope.success) return void message.warning(envelope.message);
      form.setFieldValue(name, envelope.result.idCard);
      void form.validateFields([name]).catch(() => undefined);
      void message.success(envelope.message);
    } catch {
      // the request layer has shown why
    }
  };
  return (
    <Authorized code={permissionCode(peopleEntity, 'readIdCard')}>
      <Button icon={<IdcardOutlined />} loading={read.isPending} onClick={() => void run()}>
        {t('people.readIdCard')}
      </Button>
    </Authorized>
  );
}
