export * from './envelope.ts';
export * from './http.ts';
export * from './paths.ts';
export * from './auth.ts';
export * from './permissions.ts';
export * from './messages/index.ts';
export * from './dashboard.ts';
export * from './menu-keys.ts';
