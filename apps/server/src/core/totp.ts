/**
 * TOTP (RFC 6238 via otpauth): SHA1, 6 digits, 30 s step, ±1 step, on the injectable clock.
 * A step at or before the last accepted one is refused, so a code never works twice.
 */
import { Secret, TOTP } from 'otpauth';
import type { Clock } from './clock.ts';
import { EXAMPLE_CODE, exampleCodesOn } from './example-codes.ts';
import type { Services } from './services.ts';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_ISSUER = 'Member Dashboard';

const totpOf = (secret: string, label = 'member') =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpUri(secret: string, username: string): string {
  return totpOf(secret, username).toString();
}

export function currentTotp(secret: string, clock: Clock): { code: string; expiresInSeconds: number } {
  const now = clock.now();
  const code = totpOf(secret).generate({ timestamp: now });
  const elapsed = Math.floor(now / 1000) % TOTP_PERIOD_SECONDS;
  return { code, expiresInSeconds: TOTP_PERIOD_SECONDS - elapsed };
}

/**
 * The time step a code matches (within ±1 step of the world's now), or null when it is wrong or
 * was already used (its step is not after `lastStep`). In a world under example codes
 * (core/example-codes.ts) EXAMPLE_CODE counts as the current step's code.
 */
export function matchTotp(
  ctx: Pick<Services, 'clock' | 'sqlite' | 'config'>,
  secret: string,
  code: string,
  lastStep: number | null,
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = ctx.clock.now();
  const current = TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now });
  const delta =
    code === EXAMPLE_CODE && exampleCodesOn(ctx)
      ? 0
      : totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = current + delta;
  if (lastStep !== null && step <= lastStep) return null;
  return step;
}
