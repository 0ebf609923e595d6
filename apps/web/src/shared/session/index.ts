export { ButtonAuthKey, currentToken, useSession, type SessionState } from './session-store.ts';
export { EmptyMenuError, fetchUserPermissions, logout } from './session-api.ts';
export { fillUrlTemplate, isExternalUrl } from './url-template.ts';
export { HOME_PATH, LOGIN_PATH, redirectTarget } from './redirect-target.ts';
export { chooseLanguage } from './user-language.ts';
