export { emitAppEvent, onAppEvent, useAppEvent, type AppEventName, type AppEvents } from './app-events.ts';
export { RealtimeClient, realtimeUrl, type SocketFactory, type SocketLike } from './realtime-client.ts';
export { dispatchRealtimeMessage, useRealtimeChannel } from './use-realtime-channel.tsx';
