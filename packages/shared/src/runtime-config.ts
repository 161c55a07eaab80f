/**
 * The web app's runtime configuration (`/config.json`): which transport and where the provider lives.
 * Written with zod/mini: the app parses it at start-up, and zod's full API (with the contract and
 * the form rules) then stays off the sign-in route.
 */
import './zod-config.ts';
import * as z from 'zod/mini';

export const runtimeConfigSchema = z.object({
  mode: z.enum(['mock', 'provider']),
  /** tRPC endpoint of the mock server (mock mode). */
  trpcUrl: z._default(z.string(), '/trpc'),
  /** Provider REST base URL for 'api' endpoints (provider mode). */
  apiBaseUrl: z._default(z.string(), ''),
  /** Provider REST base URL for the deposit host. */
  depositBaseUrl: z._default(z.string(), ''),
  /** GET {walletCheckUrl}{address}: 200 means the address is valid (third-party chain data service). */
  walletCheckUrl: z._default(z.string(), ''),
  /** Fixed payment gateway value sent with make_payment. */
  depositGateway: z._default(z.string(), 'nowpayments'),
  /** ALTCHA challenge URL for the forgot-username captcha. */
  captchaChallengeUrl: z.optional(z.string()),
  /** A call with no answer after this many ms fails with MSG.requestTimedOut (a hung server never leaves a spinner forever). */
  requestTimeoutMs: z._default(z.int().check(z.positive()), 20_000),
  /** Optional extensions the server offers beyond the provider contract. */
  capabilities: z._default(z.array(z.string()), []),
  /** Demo credentials shown as the sign-in hint. */
  demoHint: z.optional(z.object({ username: z.string(), password: z.string() })),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
