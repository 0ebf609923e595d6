export { ChangePasswordDialog, type ChangePasswordDialogProps } from './components/change-password-dialog.tsx';
