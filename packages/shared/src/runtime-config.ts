/**
 * The web app's runtime configuration (`/config.json`): which transport and where the provider lives.
 * Written with valibot, not zod: the app parses it before its first screen, and zod's core (about
 * 15 kB gzipped even through zod/mini) would be on the sign-in route for this one small object;
 * valibot's functions tree-shake to the few this schema uses (about 1 kB).
 */
import * as v from 'valibot';

export const runtimeConfigSchema = v.object({
  mode: v.picklist(['mock', 'provider']),
  /** tRPC endpoint of the mock server (mock mode). */
  trpcUrl: v.optional(v.string(), '/trpc'),
  /** Provider REST base URL for 'api' endpoints (provider mode). */
  apiBaseUrl: v.optional(v.string(), ''),
  /** Provider REST base URL for the deposit host. */
  depositBaseUrl: v.optional(v.string(), ''),
  /** GET {walletCheckUrl}{address}: 200 means the address is valid (third-party chain data service). */
  walletCheckUrl: v.optional(v.string(), ''),
  /** Fixed payment gateway value sent with make_payment. */
  depositGateway: v.optional(v.string(), 'nowpayments'),
  /** ALTCHA challenge URL for the forgot-username captcha. */
  captchaChallengeUrl: v.optional(v.string()),
  /** A call with no answer after this many ms fails with MSG.requestTimedOut (a hung server never leaves a spinner forever). */
  requestTimeoutMs: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1)), 20_000),
  /** Optional extensions the server offers beyond the provider contract. */
  capabilities: v.optional(v.array(v.string()), []),
  /** Demo credentials shown as the sign-in hint. */
  demoHint: v.optional(v.object({ username: v.string(), password: v.string() })),
  /** The QA world this page is in (a stand-in with QA control on; absent in the default world). */
  qaWorld: v.optional(v.string()),
  /** That world's name, when QA gave it one. */
  qaWorldName: v.optional(v.string()),
});
export type RuntimeConfig = v.InferOutput<typeof runtimeConfigSchema>;

/** The config with its defaults filled in; throws on a field of the wrong type, naming it. */
export function parseRuntimeConfig(input: unknown): RuntimeConfig {
  const result = v.safeParse(runtimeConfigSchema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  throw new Error(`Invalid /config.json${path ? ` at ${path}` : ''}: ${issue.message}`);
}
