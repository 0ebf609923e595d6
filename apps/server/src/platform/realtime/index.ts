export { realtimePlugin, type RealtimeOptions } from './plugin.ts';
export type { RealtimeHub } from './hub.ts';
