export { ChangePasswordDialog, type ChangePasswordDialogProps } from './components/change-password-dialog.tsx';
export { DepartSelectDialog, type DepartSelectDialogProps } from './components/depart-select-dialog.tsx';
