// in a module without schemas: the login page reads its settings' path, and zod with the schemas would come along

/** Account paths below API_PREFIX: registration, password reset, SMS codes, phone login, two-step verification, CAS, activation. */
export const AccountPath = {
  register: '/sys/user/register',
  /** GET ?field=username|email|phone&value= : is the value still free (live checks of the registration form) */
  registerCheck: '/sys/user/register/check',
  sms: '/sys/sms',
  phoneLogin: '/sys/phoneLogin',
  resetAccount: '/sys/user/passwordReset/account',
  resetSendCode: '/sys/user/passwordReset/sendCode',
  resetVerify: '/sys/user/passwordReset/verify',
  resetPassword: '/sys/user/passwordReset/password',
  twoFactorStatus: '/sys/twoFactor/status',
  twoFactorEnroll: '/sys/twoFactor/enroll',
  twoFactorConfirm: '/sys/twoFactor/confirm',
  twoFactorDisable: '/sys/twoFactor/disable',
  /** during a login that asks for the second factor: enrol with the login challenge (admins who must) */
  twoFactorChallengeEnroll: '/sys/twoFactor/challenge/enroll',
  /** completes a login that answered secondFactorRequired */
  twoFactorLogin: '/sys/twoFactor/login',
  casValidate: '/cas/client/validateLogin',
  activationStatus: '/sys/activation/status',
  activate: '/sys/activation/activate',
  activationIssue: '/sys/activation/issue',
  accountSettings: '/sys/account/settings',
  /** GET `?tenant=<code>` (public): what the login page offers, `LoginSettings` */
  loginSettings: '/sys/account/loginSettings',
} as const;
