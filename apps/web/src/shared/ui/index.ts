export { Copyright } from './copyright.tsx';
export { FullPageSpin } from './full-page-spin.tsx';
export { LanguageSwitch } from './language-switch.tsx';
export { useDocumentTitle } from './use-document-title.ts';
export { useDrawerSize } from './use-drawer-size.ts';
export { PasswordStrengthMeter } from './password-strength.tsx';
export { IconByName } from './icon-by-name.tsx';
export { IconPicker } from './icon-picker.tsx';
