export * from './schema.ts';
export * as schema from './schema.ts';
export * from './database.ts';
