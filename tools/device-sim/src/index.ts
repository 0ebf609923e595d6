export { CAPTURE_KINDS, DEFAULT_ALARMS_PER_HOUR, DEFAULT_HEARTBEAT_MS, nextAlarmDelayMs, quakeReading, ENROLL_OUTCOMES, newMemory, SimDevice, SIM_KINDS, type DeviceMemory, type EnrollOutcome, type SimDeviceOptions, type SimKind } from './device.ts';
export { startFleet, type Fleet, type FleetOptions } from './fleet.ts';
export { provisionDevices } from './provision.ts';
export { accessAllowedAt, type SiteCalendar } from './access-window.ts';
export { AccessList } from './access-list.ts';
export { walkRoute, type RouteWalk } from './patrol-walk.ts';
export { DoorScheduleStore, type HeldDoorSchedules } from './door-schedules.ts';
