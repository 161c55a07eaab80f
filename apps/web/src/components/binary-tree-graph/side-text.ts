/**
 * A binary side in the member's language. The side itself is data ('0' the left leg, anything
 * else the right, shared sideOf): only its name is translated, never which leg it is.
 */
import { sideOf } from '@md/shared';
import type { useT } from '@/lib/i18n/i18n.tsx';

export type Translate = ReturnType<typeof useT>;

/** 'Left', 'Right', or '-' for no side, in the member's language. */
export function sideText(t: Translate, side: unknown): string {
  const known = sideOf(side);
  return known === null ? '-' : t(known === '0' ? 'network.side.left' : 'network.side.right');
}
