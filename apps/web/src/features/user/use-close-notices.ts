import { closeNotices } from '../../shared/api/index.ts';

/**
 * Closes the notices and messages on screen. Called as a person moves on to the next step of an account flow (or
 * into the console): what an earlier step reported must not stay over the next one or the console's header.
 */
export function useCloseNotices(): () => void {
  return closeNotices;
}
