export * from './time-setting.ts';
export * from './time-setting-cases.ts';
export * from './sync.ts';
