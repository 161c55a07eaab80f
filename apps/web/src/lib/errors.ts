/** Reading errors the same way in both client modes: `message` and `data.httpStatus`. */
import { TRPCClientError } from '@trpc/client';

interface ErrorWithData {
  message?: unknown;
  data?: { httpStatus?: unknown } | null;
}

export function httpStatusOf(error: unknown): number | undefined {
  const status = (error as ErrorWithData | null)?.data?.httpStatus;
  return typeof status === 'number' ? status : undefined;
}

/** The server's message, or the spec's fallback when there is none (network failure, odd body). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof TRPCClientError || error instanceof Error) {
    const message = error.message.trim();
    // fetch failures and JSON parse errors carry no provider text: show the fallback.
    if (!message || /failed to fetch|networkerror|unexpected token|json/i.test(message)) return fallback;
    return message;
  }
  return fallback;
}
