export { DEVICE_REVOKED, gatewayPlugin } from './plugin.ts';
export { issueDeviceKey } from './device-keys.ts';
export type { DeviceGateway, GatewayOptions } from './gateway.ts';
export type { DerivedRows } from './derived-rows.ts';
