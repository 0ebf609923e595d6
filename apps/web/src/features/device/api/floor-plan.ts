import { FloorPlanPath, type DoorFloorPlan, type Envelope, type FloorPlan, type FloorPlanPlacement } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export const floorPlanKey = (areaId: string) => ['device', 'floorPlan', areaId] as const;
export const doorFloorPlansKey = ['device', 'doorFloorPlans'] as const;

/** GET /sysArea/floorPlan: the area's image, placements and the doors and devices it may hold. */
export async function getFloorPlan(areaId: string): Promise<FloorPlan> {
  return unwrap(await http.get<FloorPlan>(FloorPlanPath.get, { areaId }));
}

export function useFloorPlan(areaId: string) {
  return useQuery(queryOptions({ queryKey: floorPlanKey(areaId), queryFn: () => getFloorPlan(areaId) }));
}

/** PUT /sysArea/floorPlan/save: replaces the area's placements; a refusal comes back as the envelope. */
export function saveFloorPlan(areaId: string, placements: FloorPlanPlacement[]): Promise<Envelope<FloorPlanPlacement[]>> {
  return http.put<FloorPlanPlacement[]>(FloorPlanPath.save, { areaId, placements });
}

/** POST /sysArea/floorPlan/upload: the area first, then the image, as the server reads them. */
export function uploadFloorPlan(areaId: string, file: File): Promise<Envelope<{ image: string }>> {
  const form = new FormData();
  form.append('areaId', areaId);
  form.append('file', file, file.name);
  return http.post<{ image: string }>(FloorPlanPath.upload, form, { timeout: 120_000 });
}

/** DELETE /sysArea/floorPlan/image: the area has no plan image (nor places) any more. */
export function removeFloorPlanImage(areaId: string): Promise<Envelope<null>> {
  return http.delete<null>(FloorPlanPath.removeImage, { areaId });
}

/** GET /sysDoor/floorPlans: the areas with a plan and their placed doors, for the door status page. */
export async function getDoorFloorPlans(): Promise<DoorFloorPlan[]> {
  return unwrap(await http.get<DoorFloorPlan[]>(FloorPlanPath.plans));
}

export function useDoorFloorPlans(enabled: boolean) {
  return useQuery(queryOptions({ queryKey: doorFloorPlansKey, queryFn: getDoorFloorPlans, enabled }));
}
