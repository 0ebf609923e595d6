import { useTranslation } from 'react-i18next';
import { ChangePasswordDialog } from '../features/user/components/change-password-dialog.tsx';
import { useDocumentTitle } from '../shared/ui/index.ts';
import { UserLayout } from './layouts/user-layout.tsx';

// A chunk of its own (app-routes.tsx): the signed-in console does not carry the password form for it.
/** First login with an initial password: nothing else is reachable until it is replaced. */
export function ForcedPasswordChange() {
  const { t } = useTranslation();
  useDocumentTitle(t('password.title'));
  return (
    <UserLayout>
      <ChangePasswordDialog open forced />
    </UserLayout>
  );
}
