/**
 * Password and transaction-password hashing: scrypt (memory-hard) with a per-hash salt,
 * compared in constant time. Stored as `scrypt$N$r$p$salt$hash` (base64url) so the cost can
 * be raised later without invalidating existing hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const COST = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

const derive = (plain: string, salt: Buffer, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(plain.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 256 * (options.N ?? COST.N) * (options.r ?? COST.r) }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

export async function hashPassword(plain: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(plain, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** False for a wrong password and for a malformed stored hash (never throws on bad data). */
export async function verifyPassword(plain: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !keyText) return false;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  if (![options.N, options.r, options.p].every((v) => Number.isInteger(v) && v > 0)) return false;
  const expected = Buffer.from(keyText, 'base64url');
  const actual = await derive(plain, Buffer.from(saltText, 'base64url'), options);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The demo password of seeded members and its precomputed hash, so seeding costs no KDF time. */
export const DEMO_PASSWORD = 'Demo@1234';
export const DEMO_PASSWORD_HASH = 'scrypt$16384$8$1$iCCEvM2w9pK5urLoFOXNKA$aw0CwkgbaCDLnu__a0DD3JWnl_DbYF_-TDI_A7bEKY0';

/** Checked against unknown usernames so a wrong name costs as long as a wrong password. */
export const verifyAgainstDummy = (plain: string) => verifyPassword(plain, DEMO_PASSWORD_HASH).then(() => false);
