import type { LoginResult } from './auth.ts';

/** /sys/login answers this instead of a session when the user must give a second factor. */
export interface SecondFactorChallenge {
  secondFactorRequired: true;
  challenge: string;
  /** false: the user has no authenticator yet and must enrol now (administrators when the setting says so) */
  enrolled: boolean;
}
export type PasswordLoginResult = LoginResult | SecondFactorChallenge;

export function needsSecondFactor(result: PasswordLoginResult): result is SecondFactorChallenge {
  return (result as SecondFactorChallenge).secondFactorRequired === true;
}
