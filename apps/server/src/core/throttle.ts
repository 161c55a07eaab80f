/** Once-per-interval actions (the spec's 10 s reset throttle), on the injectable clock. */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { throttles } from '@md/db';
import { tooMany } from './errors.ts';
import type { Services } from './services.ts';

/** Records a use of `key`; throws 429 with `message` when the last use was under `intervalMs` ago. */
export function throttleOnce(
  ctx: Pick<Services, 'db' | 'clock'>,
  name: string,
  intervalMs: number,
  message: string,
): void {
  // The key carries a client-sent username (up to the 64 KB body): a long one is stored as its hash.
  const key = name.length > 128 ? `#${createHash('sha256').update(name).digest('base64url')}` : name;
  const now = ctx.clock.now();
  const waitMs = ctx.db.transaction((tx) => {
    const last = tx.select().from(throttles).where(eq(throttles.key, key)).get();
    if (last && now - last.lastAt < intervalMs && now >= last.lastAt) return last.lastAt + intervalMs - now;
    tx.insert(throttles)
      .values({ key, lastAt: now })
      .onConflictDoUpdate({ target: throttles.key, set: { lastAt: now } })
      .run();
    return 0;
  });
  if (waitMs > 0) throw tooMany(message, waitMs / 1000);
}
