export { ChangePasswordDialog, type ChangePasswordDialogProps } from './components/change-password-dialog.tsx';
export { expectWelcome, greetingKey, takeWelcome, welcomeBack } from './greeting.ts';
export { DepartSelectDialog, type DepartSelectDialogProps } from './components/depart-select-dialog.tsx';
export { TwoFactorDialog, type TwoFactorDialogProps } from './components/two-factor-dialog.tsx';
