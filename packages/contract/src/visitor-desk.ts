import * as z from 'zod';
import { cardNoSchema } from './crud/people-entities.ts';
import { idSchema } from './ids.ts';

/**
 * The desk where visitors arrive (issue 30): the operator reads the visitor's ID card at a capture device, finds the
 * visitor and today's visits, issues a door card or enrols a palm, and hands over a pass whose QR code holds the visit
 * id. Card numbers and palm templates are write-only here as everywhere.
 */
export const VisitorDeskPath = {
  /** GET `?deviceId=`: the ID card number on the capture device's reader (permission `vistor:visit:desk`) */
  readIdCard: '/vistor/desk/readIdCard',
  /** GET `?idCard=`: the visitor with this ID number and his visits of today (`DeskLookup`), or 'no visitor' */
  find: '/vistor/desk/find',
  /** POST `{ visitorId, cardNo }`: issue a door card (permission `vistor:list:issueCard`); answers `{ cardNoMasked }` */
  issueCard: '/vistor/desk/issueCard',
  /** POST `{ id, hand, deviceId? }`: enrol a palm of the visitor (permission `vistor:list:enroll`); answers the `Enrollment` */
  enroll: '/vistor/desk/enroll',
  /** GET `?id=`: how the visitor's enrollment goes */
  enrollStatus: '/vistor/desk/enrollStatus',
  /** POST `{ id }`: cancel a waiting enrollment */
  enrollCancel: '/vistor/desk/enrollCancel',
  /** GET `?visitId=`: what the visit's pass shows (`VisitPass`) */
  pass: '/vistor/desk/pass',
} as const;

/** GET `VisitorDeskPath.find`: an ID number as read or typed (compared in capitals, as the device reads it). */
export const deskFindQuery = z.object({ idCard: z.string().trim().min(1, { error: 'validation.required' }).max(32).toUpperCase() });

export const deskIssueCardBody = z.object({ visitorId: idSchema, cardNo: cardNoSchema });

export const deskPassQuery = z.object({ visitId: idSchema });

/** The visitor as the desk shows him: no card number, no template, the ID number masked. */
export interface DeskVisitor {
  id: string;
  name: string;
  idCardMasked: string;
  phone: string;
  cardNoMasked: string | null;
  palmLeft: number;
  palmRight: number;
  /** 1 normal, 2 frozen */
  status: number;
}

/** A visit of today as the desk lists it: its window is current, or starts later today. */
export interface DeskVisit {
  id: string;
  hostName: string;
  startTime: string;
  endTime: string;
  doors: string[];
}

export interface DeskLookup {
  visitor: DeskVisitor;
  visits: DeskVisit[];
}

/** What a visitor's pass shows; its QR code encodes `visitId`. */
export interface VisitPass {
  visitId: string;
  visitorName: string;
  hostName: string;
  startTime: string;
  endTime: string;
  doors: string[];
}
