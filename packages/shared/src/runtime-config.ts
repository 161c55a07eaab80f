/** The web app's runtime configuration (`/config.json`): which transport and where the provider lives. */
import './zod-config.ts';
import { z } from 'zod';

export const runtimeConfigSchema = z.object({
  mode: z.enum(['mock', 'provider']),
  /** tRPC endpoint of the mock server (mock mode). */
  trpcUrl: z.string().default('/trpc'),
  /** Provider REST base URL for 'api' endpoints (provider mode). */
  apiBaseUrl: z.string().default(''),
  /** Provider REST base URL for the deposit host. */
  depositBaseUrl: z.string().default(''),
  /** GET {walletCheckUrl}{address}: 200 means the address is valid (third-party chain data service). */
  walletCheckUrl: z.string().default(''),
  /** Fixed payment gateway value sent with make_payment. */
  depositGateway: z.string().default('nowpayments'),
  /** ALTCHA challenge URL for the forgot-username captcha. */
  captchaChallengeUrl: z.string().optional(),
  /** A call with no answer after this many ms fails with MSG.requestTimedOut (a hung server never leaves a spinner forever). */
  requestTimeoutMs: z.number().int().positive().default(20_000),
  /** Optional extensions the server offers beyond the provider contract. */
  capabilities: z.array(z.string()).default([]),
  /** Demo credentials shown as the sign-in hint. */
  demoHint: z.object({ username: z.string(), password: z.string() }).optional(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
