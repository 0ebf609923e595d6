import { TeamOutlined } from '@ant-design/icons';
import { Button, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../../shared/ui/index.ts';

export default function VisitorPanelPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('visitor.panelTitle'));
  const navigate = useNavigate();
  return (
    <Result
      icon={<TeamOutlined />}
      title={t('visitor.panelTitle')}
      subTitle={t('visitor.panelDescription')}
      extra={
        <Space wrap>
          <Button type="primary" onClick={() => navigate('/vistor/login')}>
            {t('visitor.loginSubmit')}
          </Button>
          <Button onClick={() => navigate('/vistor/reg')}>{t('visitor.regSubmit')}</Button>
        </Space>
      }
    />
  );
}
