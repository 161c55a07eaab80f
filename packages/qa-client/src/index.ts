export {
  createQaClient,
  QaError,
  WORLD_HEADER,
  type CreatedWorld,
  type QaApi,
  type QaClient,
  type QaClientOptions,
  type QaFetch,
  type QaWorld,
  type WorldCalls,
} from './client.ts';
export type * from './types.ts';
export type { components, paths } from './generated/qa-paths.ts';
