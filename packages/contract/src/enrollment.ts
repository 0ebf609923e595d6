import * as z from 'zod';
import { PALM_HANDS, type PalmHand } from './crud/people-entities.ts';
import { idSchema } from './ids.ts';

/**
 * Palm-vein enrollment and ID card reading at a capture device (docs/device-protocol.md, "Capture device"). The
 * server sends a command; the device answers a card read with its acknowledgement, and an enrollment with the
 * template on `isps/{sn}/up/enroll` (or an acknowledgement with `ok: false` and the reason).
 */
export const CaptureCommandKind = {
  /** `EnrollPalmPayload`: capture one hand of a person; the template comes back on the enroll topic */
  enrollPalm: 'enrollPalm',
  /** `{ command }`: stop the enrollment that command started (the device answers it `cancelled`) */
  cancelEnroll: 'cancelEnroll',
  /** `{}`: read the ID card on the reader; acknowledged with `ReadIdCardResult` */
  readIdCard: 'readIdCard',
} as const;

/** Why an enrollment ended without a template. `refused`: the server would not take the upload (wrong person). */
export const ENROLL_FAILURES = ['timeout', 'cancelled', 'quality', 'refused'] as const;
export type EnrollFailure = (typeof ENROLL_FAILURES)[number];

/** How long the device waits for the hand before it answers `timeout`. */
export const ENROLL_CAPTURE_MS = 30_000;
/** How long the server waits for the device's answer before it calls the enrollment timed out. */
export const ENROLL_WAIT_MS = 45_000;
/** How long the server waits for the answer to a card read before it says no card was detected. */
export const ID_CARD_WAIT_MS = 4_000;

/** Whose palm an enrollment captures: a person's (the default) or a visitor's. Templates of both share one table. */
export const PALM_HOLDERS = ['people', 'visitor'] as const;
export type PalmHolder = (typeof PALM_HOLDERS)[number];

export interface EnrollPalmPayload {
  /** the holder's id (a person's or, with `holder: 'visitor'`, a visitor's), echoed by the device's upload */
  peopleId: string;
  /** absent for a person, so people's commands stay as devices know them */
  holder?: 'visitor';
  hand: PalmHand;
  /** give up after this long without a hand (milliseconds) */
  timeoutMs: number;
}

const messageId = z.string().min(1).max(64);

/** Device → server on `isps/{sn}/up/enroll`: the template captured for the enrollPalm command `command`. */
export const deviceEnrollUpload = z.object({
  id: messageId,
  command: messageId,
  peopleId: z.string().min(1).max(64),
  hand: z.enum(PALM_HANDS),
  template: z.string().min(1).max(65_536),
});
export type DeviceEnrollUpload = z.infer<typeof deviceEnrollUpload>;

/** The result of a failed enrollPalm acknowledgement. */
export interface EnrollFailedResult {
  reason: EnrollFailure;
}

/** The result of a readIdCard acknowledgement: the number read, or null when no card lies on the reader. */
export const readIdCardResult = z.object({ idCard: z.string().trim().max(32).nullable() });
export type ReadIdCardResult = z.infer<typeof readIdCardResult>;

/** POST `PeoplePath.enroll`: enroll a hand of a person at a capture device (the tenant's current one by default). */
export const enrollBody = z.object({
  id: idSchema,
  hand: z.enum(PALM_HANDS, { error: 'validation.invalid' }),
  deviceId: idSchema.optional(),
});

/** POST `PeoplePath.enrollCancel` and GET `PeoplePath.enrollStatus`: the enrollment (its command id). */
export const enrollmentIdSchema = z.object({ id: idSchema });

/** GET `PeoplePath.readIdCard`: read at a capture device (the tenant's current one by default). */
export const readIdCardQuery = z.object({ deviceId: idSchema.optional() });

export const EnrollmentStatus = { waiting: 'waiting', enrolled: 'enrolled', failed: 'failed' } as const;
export type EnrollmentStatus = (typeof EnrollmentStatus)[keyof typeof EnrollmentStatus];

/** An enrollment as the console follows it (never the template). */
export interface Enrollment {
  id: string;
  peopleId: string;
  hand: PalmHand;
  deviceId: string;
  deviceName: string;
  status: EnrollmentStatus;
  reason: EnrollFailure | null;
}

/** How often the console asks how an enrollment goes. */
export const ENROLL_POLL_MS = 1000;
