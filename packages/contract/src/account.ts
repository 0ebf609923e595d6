import * as z from 'zod';
import type { UserInfo } from './auth.ts';
import { PHONE_PATTERN } from './crud/fields.ts';

export { AccountPath } from './account-paths.ts';

/**
 * Self-registration of a tenant (sys_tenant.self_register): off (the default), open (the account signs in at once) or
 * with approval (the account waits, status awaiting approval, until an administrator approves it).
 */
export const SelfRegister = { off: 0, open: 1, approval: 2 } as const;
export type SelfRegisterValue = (typeof SelfRegister)[keyof typeof SelfRegister];

/** What the public login page may offer, as the server is configured (LOGIN_CAPTCHA) and the tenant has chosen. */
export interface LoginSettings {
  /** the text captcha (and the slider beside it) is asked for at login and before a code is sent */
  captcha: boolean;
  /** self-registration of the tenant the page is for */
  registration: 'off' | 'open' | 'approval';
}
export const loginSettingsQuery = z.object({ tenant: z.string().trim().max(64).optional() });

/** Verification codes sent by SMS: six digits, valid ten minutes, used once. */
export const AccountLimits = {
  smsCodeLength: 6,
  smsCodeLifetimeMs: 10 * 60_000,
  /** one code per phone and purpose per minute */
  smsCooldownMs: 60_000,
  smsPerPhonePerHour: 10,
  smsPerIpPerMinute: 20,
  /** wrong guesses before a code is thrown away */
  codeAttempts: 5,
  resetSessionMs: 15 * 60_000,
  secondFactorChallengeMs: 5 * 60_000,
  totpDigits: 6,
  totpPeriodSeconds: 30,
  registerPerIpPerMinute: 10,
} as const;

/** The origin console's smsmode values: 0 login, 1 registration, 2 forgotten password. */
export const SmsMode = { login: '0', register: '1', reset: '2' } as const;
export type SmsModeValue = (typeof SmsMode)[keyof typeof SmsMode];

export const phoneField = z.string().trim().regex(PHONE_PATTERN);
const smsCode = z.string().trim().regex(/^\d{6}$/);
const totpCode = z.string().trim().regex(/^\d{6}$/);

/** The login captcha, where a form asks for it before something is sent (codes); checked and used up by the server. */
const captchaFields = {
  captcha: z.string().trim().max(16).optional(),
  checkKey: z.string().trim().max(64).optional(),
};

export const registerBody = z.object({
  /** the code of the tenant the account is for (the page's `tenant` parameter); the installation's first tenant when absent */
  tenant: z.string().trim().max(64).optional(),
  username: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(200),
  confirmPassword: z.string().min(1).max(200),
  email: z.string().trim().max(100).email(),
  phone: phoneField,
  smscode: smsCode,
});
export type RegisterBody = z.infer<typeof registerBody>;

export const registerCheckQuery = z.object({
  field: z.enum(['username', 'email', 'phone']),
  value: z.string().trim().min(1).max(100),
});
export type RegisterCheckQuery = z.infer<typeof registerCheckQuery>;

// `tenant`: for a registration code, the tenant the account is to be for (registerBody.tenant)
export const smsBody = z.object({ mobile: phoneField, smsmode: z.enum(['0', '1', '2']), tenant: z.string().trim().max(64).optional(), ...captchaFields });
export type SmsBody = z.infer<typeof smsBody>;

export const phoneLoginBody = z.object({ mobile: phoneField, captcha: smsCode });
export type PhoneLoginBody = z.infer<typeof phoneLoginBody>;

export const resetAccountBody = z.object({ username: z.string().trim().min(1).max(100) });
export const resetSendCodeBody = resetAccountBody.extend(captchaFields);
export type ResetSendCodeBody = z.infer<typeof resetSendCodeBody>;
export interface ResetAccountResult {
  /** the account's phone with the middle digits hidden, shown on step 2 */
  maskedPhone: string;
}
export const resetVerifyBody = z.object({ username: z.string().trim().min(1).max(100), smscode: smsCode });
export interface ResetVerifyResult {
  /** proves step 2 was passed; step 3 sends it back with the new password */
  resetToken: string;
}
export const resetPasswordBody = z.object({
  username: z.string().trim().min(1).max(100),
  resetToken: z.string().min(20).max(100),
  password: z.string().min(1).max(200),
  confirmPassword: z.string().min(1).max(200),
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

/**
 * The calls SPEC section 7 declares by the origin template's names (ant-design-vue-pro): each answers as an alias of
 * one of our flows, and the API description says which.
 */
export const DeclaredPath = {
  /** POST: the password reset's last step, as AccountPath.resetPassword */
  forgePassword: '/auth/forge-password',
  /** POST: as AccountPath.register */
  register: '/auth/register',
  /** POST: as AccountPath.sms */
  sms: '/account/sms',
  /** GET: the caller's userInfo, as the login answers it */
  userInfo: '/user/info',
} as const;

// in a module without schemas: the login page needs it, and zod with the schemas would come along
export { needsSecondFactor, type PasswordLoginResult, type SecondFactorChallenge } from './second-factor.ts';

export interface TwoFactorEnrollment {
  /** base32 secret, for typing into an app by hand */
  secret: string;
  /** otpauth://totp/… URI, shown as a QR code */
  uri: string;
}
export interface TwoFactorStatus {
  enrolled: boolean;
  /** the system setting makes it mandatory for this user (an administrator) */
  required: boolean;
}
export const twoFactorCodeBody = z.object({ code: totpCode });
export const twoFactorChallengeBody = z.object({ challenge: z.string().min(20).max(100) });
export const twoFactorLoginBody = z.object({ challenge: z.string().min(20).max(100), code: totpCode });

export const casValidateQuery = z.object({ ticket: z.string().trim().min(1).max(512), service: z.string().trim().min(1).max(1024) });
export interface CasLoginResult {
  token: string;
  userInfo: UserInfo;
}

export const activateBody = z.object({ code: z.string().trim().min(8).max(100) });
export interface ActivationStatus {
  required: boolean;
  /** ISO time the current authorisation ends, or null when the system was never activated */
  authorizedUntil: string | null;
  expired: boolean;
  /** the site's TIME_ZONE, the zone of authorizedUntil (the page is read before any sign-in names it) */
  timeZone?: string;
}
export const activationIssueBody = z.object({ days: z.number().int().min(1).max(3650) });
export interface IssuedActivationCode {
  code: string;
  authorizedUntil: string;
}

export interface AccountSettings {
  /** administrators must give a TOTP code at login */
  twoFactorForAdmins: boolean;
  /** protected calls answer 'System authorization expired' while the system is not activated */
  activationRequired: boolean;
}
export const accountSettingsBody = z.object({ twoFactorForAdmins: z.boolean().optional(), activationRequired: z.boolean().optional() });

/** Strength shown while typing a new password (SPEC section 5: low, middle, high). */
export type PasswordStrength = 'low' | 'middle' | 'high';
export function passwordStrength(password: string): PasswordStrength {
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((p) => p.test(password)).length;
  if (password.length >= 12 && classes === 4) return 'high';
  if (password.length >= 8 && classes >= 3) return 'middle';
  return 'low';
}

/** 138****5678: enough for a person to recognise the own phone, not enough to learn someone else's. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\s+/g, '');
  if (digits.length <= 4) return '*'.repeat(digits.length);
  const head = digits.slice(0, Math.min(3, digits.length - 4));
  return `${head}${'*'.repeat(digits.length - head.length - 4)}${digits.slice(-4)}`;
}
