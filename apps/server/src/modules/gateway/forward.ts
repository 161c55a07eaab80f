/**
 * Forwarding one contract call to the real provider: the same path (contract[name].path under
 * PROVIDER_URL, or PROVIDER_DEPOSIT_URL for the deposit host), the same JSON body and bearer
 * header. What came back is handed on as it came (status, content type, text); only what is no
 * answer at all (a timeout, a refused connection) becomes a provider-shaped { Error } here.
 * Node's fetch (undici) keeps connections to the provider alive between calls.
 */
import { contract, type ProcedureName } from '@md/shared';
import { JSON_TYPE } from '../../core/answer-headers.ts';
import { errorBody } from '../../core/errors.ts';

export interface ProviderTarget {
  /** PROVIDER_URL: the provider's API base (a path prefix is kept). */
  apiUrl: string;
  /** PROVIDER_DEPOSIT_URL: base of the endpoints whose contract host is 'deposit'; apiUrl when absent. */
  depositUrl?: string;
  /** PROVIDER_TIMEOUT_MS: how long a call may wait for the whole answer. */
  timeoutMs: number;
}

/** Well under the client's 20 s deadline, so the client sees the gateway's 504 rather than its own timeout. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/** What the provider answered (or why it did not). */
export interface ProviderAnswer {
  status: number;
  /** The body as received, byte for byte (as text). */
  text: string;
  contentType: string | undefined;
  /** How long the provider took, to the end of the body. */
  providerMs: number;
  /** Set when no answer came: a timeout (504) or a connection failure (502); `text` is then our { Error }. */
  failure?: 'timeout' | 'connection';
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const base = (url: string) => url.replace(/\/+$/, '');

/** The provider URL of an endpoint. */
export function providerUrlOf(target: ProviderTarget, name: ProcedureName): string {
  const entry = contract[name];
  return `${base(entry.host === 'deposit' ? (target.depositUrl ?? target.apiUrl) : target.apiUrl)}${entry.path}`;
}

/** The provider-shaped error of a call that got no answer. */
const failed = (
  status: number,
  message: string,
  failure: ProviderAnswer['failure'],
  started: number,
): ProviderAnswer => ({
  status,
  text: JSON.stringify(errorBody(status, message)),
  contentType: JSON_TYPE,
  providerMs: round(performance.now() - started),
  failure,
});

/** Why fetch failed, in words: undici's 'fetch failed' hides the cause (ECONNREFUSED, ENOTFOUND…). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}

/** `userAgent`: the member's browser, passed on so the provider's sessions list names the device, not this gateway. */
export async function sendToProvider(
  target: ProviderTarget,
  name: ProcedureName,
  body: string,
  authorization: string | undefined,
  userAgent?: string,
): Promise<ProviderAnswer> {
  const url = providerUrlOf(target, name);
  const path = contract[name].path;
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(authorization ? { authorization } : {}),
        ...(userAgent ? { 'user-agent': userAgent } : {}),
      },
      body,
      // A gateway hands on what it got: a redirect is an answer too (and is not JSON).
      redirect: 'manual',
      signal: AbortSignal.timeout(target.timeoutMs),
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      contentType: response.headers.get('content-type') ?? undefined,
      providerMs: round(performance.now() - started),
    };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError')
      return failed(
        504,
        `The provider did not answer ${path} within ${target.timeoutMs} ms`,
        'timeout',
        started,
      );
    return failed(
      502,
      `The provider could not be reached for ${path} (${causeOf(error)})`,
      'connection',
      started,
    );
  }
}

/** A GET of a path beside the contract's at the provider (the captcha challenge); null when there is no answer. */
export async function getFromProvider(
  target: ProviderTarget,
  path: string,
): Promise<{ status: number; text: string } | null> {
  try {
    const response = await fetch(`${base(target.apiUrl)}${path}`, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(target.timeoutMs),
    });
    return { status: response.status, text: await response.text() };
  } catch {
    return null;
  }
}

/** The body of an answer as JSON, or undefined when it is not JSON (empty, HTML, cut off). */
export function parseAnswer(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
