import { IdcardOutlined, LockOutlined, MobileOutlined, UserOutlined } from '@ant-design/icons';
import { ID_NUMBER_MAX, IdType, PHONE_PATTERN, VISITOR_CATEGORIES, isValidIdNumber, visitorIdRefusal, type VisitorCategory, type VisitorRegisterBody } from '@isps/contract';
import { Button, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { feedback } from '../../../shared/api/index.ts';
import { sameAsRule, useDocumentTitle } from '../../../shared/ui/index.ts';
import { useVisitorRegister } from '../api/visitor-register.ts';
import styles from '../components/visitor-layout.module.css';
import { categoryKey } from '../visitor-labels.ts';

const ID_TYPE_OPTIONS = [
  { value: IdType.resident, label: 'visitor.idTypeResident' },
  { value: IdType.passport, label: 'visitor.idTypePassport' },
  { value: IdType.other, label: 'visitor.idTypeOther' },
] as const;

export default function VisitorRegisterPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('visitor.regTitle'));
  const registerCall = useVisitorRegister();
  const navigate = useNavigate();

  async function submit(values: VisitorRegisterBody) {
    const answer = await registerCall.mutateAsync({ ...values, name: values.name.trim(), idCard: values.idCard.trim(), phone: values.phone.trim() }).catch(() => null);
    if (!answer) return;
    if (!answer.success) {
      feedback().notify('error', t('register.failed'), answer.message, 4);
      return;
    }
    feedback().notify('success', t('visitor.regTitle'), t('visitor.registered'), 3);
    navigate('/vistor/login', { replace: true });
  }

  return (
    <>
      <Typography.Title level={2} className={styles.title}>
        {t('visitor.regTitle')}
      </Typography.Title>
      <Form<VisitorRegisterBody> size="large" onFinish={(v) => void submit(v)} initialValues={{ category: 'general' satisfies VisitorCategory, idType: IdType.resident }}>
        <Form.Item name="name" rules={[{ required: true, whitespace: true, message: t('visitor.nameRequired') }]}>
          <Input prefix={<UserOutlined aria-hidden />} placeholder={t('visitor.name')} aria-label={t('visitor.name')} autoComplete="name" maxLength={100} />
        </Form.Item>
        <Form.Item name="idType" label={t('visitor.idType')}>
          <Select aria-label={t('visitor.idType')} options={ID_TYPE_OPTIONS.map((o) => ({ value: o.value, label: t(o.label) }))} />
        </Form.Item>
        {/* checked by the chosen ID type, again whenever the type changes */}
        <Form.Item
          name="idCard"
          dependencies={['idType']}
          rules={[
            { required: true, message: t('visitor.idCardInvalid') },
            ({ getFieldValue }) => ({
              validator: async (_, v: string) => {
                const type = getFieldValue('idType') as string;
                if (v && !isValidIdNumber(type, v)) throw new Error(t(visitorIdRefusal(type)));
              },
            }),
          ]}
        >
          <Input prefix={<IdcardOutlined aria-hidden />} placeholder={t('visitor.idCard')} aria-label={t('visitor.idCard')} autoComplete="off" maxLength={ID_NUMBER_MAX} />
        </Form.Item>
        <Form.Item name="phone" rules={[{ required: true, pattern: PHONE_PATTERN, message: t('visitor.phoneInvalid') }]}>
          <Input prefix={<MobileOutlined aria-hidden />} placeholder={t('visitor.phone')} aria-label={t('visitor.phone')} autoComplete="tel" maxLength={20} />
        </Form.Item>
        <Form.Item name="category" label={t('visitor.category')}>
          <Select aria-label={t('visitor.category')} options={VISITOR_CATEGORIES.map((c) => ({ value: c, label: t(categoryKey[c]) }))} />
        </Form.Item>
        <Form.Item name="password" rules={[{ required: true, pattern: /^\d{6,8}$/, message: t('visitor.passwordRule') }]}>
          <Input.Password prefix={<LockOutlined aria-hidden />} placeholder={t('visitor.password')} aria-label={t('visitor.password')} autoComplete="new-password" inputMode="numeric" maxLength={8} />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          dependencies={['password']}
          rules={[{ required: true, message: t('register.confirmRequired') }, sameAsRule(t('visitor.mismatch'))]}
        >
          <Input.Password prefix={<LockOutlined aria-hidden />} placeholder={t('visitor.confirmPassword')} aria-label={t('visitor.confirmPassword')} autoComplete="new-password" inputMode="numeric" maxLength={8} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={registerCall.isPending}>
            {t('visitor.regSubmit')}
          </Button>
        </Form.Item>
        <div className={styles.links}>
          <Link to="/vistor/login">{t('visitor.toLogin')}</Link>
        </div>
      </Form>
    </>
  );
}
