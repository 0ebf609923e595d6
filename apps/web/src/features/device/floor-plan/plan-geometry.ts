import type { FloorPlanPlacement } from '@isps/contract';

/** One arrow key press moves a marker by 1 % of the image (10 % with Shift). */
export const KEY_STEP = 0.01;
export const KEY_STEP_LARGE = 0.1;

const clamp = (value: number) => Math.min(1, Math.max(0, value));
/** fractions are kept to ten-thousandths, as the server stores them */
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** A place on the image from a pointer's position: fractions of the image's box, kept on the image. */
export function fractionAt(clientX: number, clientY: number, box: { left: number; top: number; width: number; height: number }): { x: number; y: number } | null {
  if (box.width <= 0 || box.height <= 0) return null;
  return { x: round(clamp((clientX - box.left) / box.width)), y: round(clamp((clientY - box.top) / box.height)) };
}

/** Whether a pointer is over the image's box. */
export function isInside(clientX: number, clientY: number, box: { left: number; top: number; width: number; height: number }): boolean {
  return clientX >= box.left && clientX <= box.left + box.width && clientY >= box.top && clientY <= box.top + box.height;
}

/**
 * The marker moved by an arrow key (ArrowLeft, ArrowRight, ArrowUp, ArrowDown), kept on the image; null for any
 * other key.
 */
export function movedByKey(placement: FloorPlanPlacement, key: string, large = false): FloorPlanPlacement | null {
  const step = large ? KEY_STEP_LARGE : KEY_STEP;
  const delta: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  const move = delta[key];
  if (!move) return null;
  return { ...placement, x: round(clamp(placement.x + move[0])), y: round(clamp(placement.y + move[1])) };
}

export const placementKey = (p: { kind: string; id: string }) => `${p.kind}:${p.id}`;
