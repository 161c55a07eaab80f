/** HTTP status ↔ tRPC error code, one table for the server's router and the client's provider link. */
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';

const CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  // An Idempotency-Key sent again with other parameters.
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  501: 'NOT_IMPLEMENTED',
  // The gateway's answers for a provider that cannot be reached or answers nothing readable (502) and one too slow (504).
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

export const trpcCodeOf = (status: number): TRPC_ERROR_CODE_KEY =>
  CODE_BY_STATUS[status] ?? 'INTERNAL_SERVER_ERROR';
