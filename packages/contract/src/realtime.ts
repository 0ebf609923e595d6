/**
 * The real-time channel (DESIGN section 6). The console opens
 * `ws(s)://{host}{API_PREFIX}/websocket/{userId}` with the access token as the only entry of the
 * `Sec-WebSocket-Protocol` header (`new WebSocket(url, [token])`); the server echoes it back. A wrong token, a
 * revoked one or another user's id is refused at the handshake (HTTP 401 / 403, no socket).
 */
export const REALTIME_PATH = '/websocket/:userId';

export function realtimePath(userId: string): string {
  return REALTIME_PATH.replace(':userId', encodeURIComponent(userId));
}

/** What a server message asks the console to do. */
export const RealtimeCmd = {
  /** an announcement for everyone was released or revoked: reload the notices */
  topic: 'topic',
  /** a notice addressed to this user was released, revoked or sent: reload the notices */
  user: 'user',
  /** a device came online: show a notification with a 'got it' button */
  deviceConnect: 'deviceConnect',
  /** a device went offline: show a notification with a 'got it' button */
  deviceDisConnect: 'deviceDisConnect',
  /** a door changed state: publish it as an app event for the pages that show doors */
  doorState: 'doorState',
  /** pushes of a software package progressed or ended (`SoftUpdateNotice`): the soft update page updates its bars */
  softUpdate: 'softUpdate',
  /** a device's synchronisation of people progressed or ended (`DeviceSyncNotice`, counts only) */
  deviceSync: 'deviceSync',
  /**
   * the emergency scenario of the tenant started or ended (`EmergencyNotice`): every console shows or drops its
   * full-screen alarm; sent to every active user of the tenant
   */
  emergency: 'emergency',
  /** an import job of this user progressed or ended (`ImportJobProgress`, counts only): the import dialog updates its bar */
  importJob: 'importJob',
  /** a cabinet device reported an opening or a closing (`data: { ids }`, the opening records): open record lists reload */
  cabinetRecord: 'cabinetRecord',
  /** a key was taken or returned (`msgId`: the key cabinet): key lists reload */
  keyState: 'keyState',
  /**
   * a key is overdue (`KeyOverdueNotice`): the console shows a warning notification until it is dismissed; sent once per
   * overdue take, to the users of the tenant who hold the key list
   */
  keyOverdue: 'keyOverdue',
  /** a patrol check-in was judged or a patrol point missed (`msgId`: the task): patrol task, quest and record lists reload */
  patrolState: 'patrolState',
  /**
   * a patrol point was missed (`PatrolMissedNotice`): the console shows a warning until it is dismissed; sent once per
   * missed point, to the users of the tenant who hold the patrol task list or the alarm list
   */
  patrolMissed: 'patrolMissed',
  /** the answer to a client heartbeat, to that socket only */
  heartcheck: 'heartcheck',
} as const;
export type RealtimeCmd = (typeof RealtimeCmd)[keyof typeof RealtimeCmd];

/** Every message the server sends over the socket. */
export interface RealtimeMessage {
  cmd: RealtimeCmd;
  /** the announcement (or device, door) the message is about */
  msgId?: string;
  /** a short human text (announcement title, device name) */
  msgTxt?: string;
  data?: unknown;
}

/** Client text is never relayed; any text (conventionally this one) is answered with `heartcheck`. */
export const REALTIME_HEARTBEAT_TEXT = 'HeartBeat';

/** SPEC section 4 and 9: retry after 3 s, 3 s more per failed attempt, back to 3 s once open. */
export const RealtimeRetry = { startMs: 3000, stepMs: 3000 } as const;

/**
 * WebSocket close codes the server uses after the handshake. `signedOut`: the socket's token was revoked (logout,
 * freeze, password change or reset, deletion); the console must not reconnect with it but sign in again.
 */
export const RealtimeClose = { serverShutdown: 1001, tooLarge: 1009, signedOut: 4401 } as const;
