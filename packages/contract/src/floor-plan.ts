/**
 * Floor plans (issue 31): an area holds an optional plan image, and its doors and devices are placed on it. A place
 * is a fraction (0 to 1) of the image's width and height, so it survives any size the image is shown at. The door
 * status page shows the plan with each placed door's live state; a door opens remotely from there through the
 * door's own open call (DoorPath.open, device:door:open).
 */
import * as z from 'zod';
import { ID_PATTERN } from './ids.ts';

export const FloorPlanPath = {
  /** GET ?areaId=: the area's plan, its placements and the area's doors and devices (the editor; device:area:list) */
  get: '/sysArea/floorPlan',
  /** PUT FloorPlanSaveBody: replaces the area's placements (device:area:edit) */
  save: '/sysArea/floorPlan/save',
  /** POST multipart: field `areaId`, then `file` (an image): becomes the area's plan image (device:area:edit) */
  upload: '/sysArea/floorPlan/upload',
  /** DELETE ?areaId=: the area has no plan image any more; its placements go with it (device:area:edit) */
  removeImage: '/sysArea/floorPlan/image',
  /** GET: the areas that have a plan, with their placed doors (the door status page's plan view; device:doorStatus:view) */
  plans: '/sysDoor/floorPlans',
} as const;

export const FLOOR_PLAN_ITEM_KINDS = ['door', 'device'] as const;
export type FloorPlanItemKind = (typeof FLOOR_PLAN_ITEM_KINDS)[number];

/** A plan image is at most 5 MB, an image (png, jpg, gif, webp). */
export const FLOOR_PLAN_MAX_BYTES = 5 * 1024 * 1024;
/** The most items one plan holds. */
export const FLOOR_PLAN_MAX_ITEMS = 500;

/** Where one door or device sits: x from the image's left edge, y from its top, as fractions of its width and height. */
export interface FloorPlanPlacement {
  kind: FloorPlanItemKind;
  id: string;
  x: number;
  y: number;
}

/** a place's coordinate; the server refuses one off the image (outside 0 to 1) in the reader's language */
const fraction = z.number().finite();
export const floorPlanPlacementSchema = z.object({
  kind: z.enum(FLOOR_PLAN_ITEM_KINDS),
  id: z.string().regex(ID_PATTERN),
  x: fraction,
  y: fraction,
});
export const floorPlanSaveBody = z.object({
  areaId: z.string().regex(ID_PATTERN),
  // the server refuses more than FLOOR_PLAN_MAX_ITEMS in the reader's language; this bounds the body
  placements: z.array(floorPlanPlacementSchema).max(FLOOR_PLAN_MAX_ITEMS * 4),
});
export type FloorPlanSaveBody = z.infer<typeof floorPlanSaveBody>;

/** A door or device of the area, placed or not (the editor's side list). */
export interface FloorPlanItem {
  kind: FloorPlanItemKind;
  id: string;
  name: string;
}

/** The editor's view of an area: its image (a stored path), its placements and everything that could be placed. */
export interface FloorPlan {
  areaId: string;
  areaName: string;
  /** the stored path of the plan image (staticFileUrl shows it), null without one */
  image: string | null;
  placements: FloorPlanPlacement[];
  items: FloorPlanItem[];
}

/** One area's plan on the door status page: the doors placed on it (their live state comes from the door status list). */
export interface DoorFloorPlan {
  areaId: string;
  areaName: string;
  image: string;
  doors: Array<{ id: string; x: number; y: number }>;
}
