export * from './declaration.ts';
export * from './fields.ts';
export * from './check-rule.ts';
export * from './labels.ts';
export * from './system-entities.ts';
