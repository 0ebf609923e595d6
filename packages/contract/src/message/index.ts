export * from './announcement.ts';
export * from './message-center.ts';
