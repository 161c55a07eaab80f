/**
 * Shadow members: how the stand-in answers a mock-routed call for a member signed in AT THE
 * PROVIDER, whose token it did not sign and cannot verify.
 *
 * A provider token is trusted only once the provider vouched for it: the JWT of a successful
 * provider-answered sign-in or registration (for the username the body named), the token of a
 * successful provider-answered profile read (for the profile's Username), or, for a token never
 * seen, one profile read at the provider made for the purpose. Unknown tokens are never mapped.
 * The shadow member of that provider identity then acts, created on first sight (a root of its own
 * tree, no password that can sign in, an empty ledger QA can fund with a deposit window and POST
 * /__qa/deposits/:transId/pay). Shadows are keyed by the provider's username and never resolve to a
 * stand-in member (one with a password): when a stand-in member holds the name, the shadow is named
 * `<username>~provider` (a '~' no registration can use).
 */
import { contract, type ProcedureName } from '@md/shared';
import type { Member, Services } from '../../core/services.ts';
import { UseOrder } from '../../core/use-order.ts';
import { findMemberByUsername, insertMember } from '../auth/members.ts';

/** Tokens remembered at most (a QA session's worth); the oldest go first. */
const MAX_TOKENS = 10_000;
/** No scrypt hash: verifyPassword answers false for it, so a shadow member cannot sign in at the stand-in. */
const NO_PASSWORD = 'shadow-member:no-password';
/** Appended to a shadow's name when a stand-in member holds the provider's username. */
const SHADOW_SUFFIX = '~provider';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The username a successful provider answer vouches for, with the token it vouches for; null when it vouches for none. */
export function vouchedBy(
  name: ProcedureName,
  input: unknown,
  token: string | undefined,
  status: number,
  body: unknown,
): { token: string; username: string } | null {
  if (status < 200 || status >= 300 || !isObject(body) || 'Error' in body) return null;
  if (
    (name === 'user.login' || name === 'user.register') &&
    typeof body.JWT === 'string' &&
    body.JWT &&
    isObject(input) &&
    typeof input.username === 'string'
  )
    return { token: body.JWT, username: input.username.trim().toLowerCase() };
  if (name === 'user.view_profile' && token) {
    const profile = Array.isArray(body.Success) ? body.Success[0] : body.Success;
    if (isObject(profile) && typeof profile.Username === 'string' && profile.Username)
      return { token, username: profile.Username.trim().toLowerCase() };
  }
  return null;
}

export function createShadowMembers(services: Services) {
  /** Provider token → username, the tokens in the order they were last vouched for. */
  const known = new UseOrder<string, { username: string; at: number }>();
  /** Username → a stand-in token for that member, re-signed when it stops verifying. */
  const standinTokens = new Map<string, string>();

  /** The shadow of a provider username: a shadow already under that name, else one under a name of its own. */
  const ensureMember = (username: string): Member => {
    const same = findMemberByUsername(services, username);
    if (same?.passwordHash === NO_PASSWORD) return same;
    const name = same ? `${username}${SHADOW_SUFFIX}` : username;
    return findMemberByUsername(services, name) ?? newShadow(name, username);
  };
  const newShadow = (name: string, username: string): Member =>
    insertMember(services, {
      username: name,
      name: username,
      email: `${username}@provider.invalid`,
      country: 'Unknown',
      passwordHash: NO_PASSWORD,
      sponsorId: null,
      side: '0',
      createdAt: services.clock.now(),
    });

  return {
    /** Remembers a token the provider vouched for. */
    learn(token: string, username: string) {
      const seen = known.entries.get(token);
      if (seen?.username === username) known.used(token, seen);
      else {
        if (!seen && known.entries.size >= MAX_TOKENS) known.evict();
        known.add(token, { username, at: 0 });
      }
    },
    /** The username of a provider token seen before, or null. */
    usernameOf: (token: string): string | null => known.entries.get(token)?.username ?? null,
    /** Whether the stand-in signed this token itself (valid or not, it is then the stand-in's to judge). */
    isStandinToken(token: string): boolean {
      try {
        services.tokens.verify(token);
        return true;
      } catch {
        return false;
      }
    },
    /** A token the stand-in accepts for the member of that username (created as a shadow member if missing). */
    standinTokenFor(username: string): string {
      const cached = standinTokens.get(username);
      if (cached) {
        try {
          services.tokens.verify(cached);
          return cached;
        } catch {
          // Expired (the QA clock moved) or revoked: signed again below.
        }
      }
      const token = services.tokens.sign(ensureMember(username));
      standinTokens.set(username, token);
      return token;
    },
    /** The call's input with the body token (if the endpoint reads one) replaced. */
    withToken(name: ProcedureName, input: unknown, token: string): unknown {
      const field = contract[name].tokenField;
      if (!field || !isObject(input) || input[field] === undefined) return input;
      // Not `{ ...input, field }`: see transport/invoke.ts.
      return Object.assign({}, input, { [field]: token });
    },
  };
}
export type ShadowMembers = ReturnType<typeof createShadowMembers>;
