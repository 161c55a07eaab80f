/**
 * The badge on every page of a QA world: which world this tab is in (its name, else its id) and
 * the way out (the leave door, for this tab alone). Plain elements in the first screen's classes:
 * it shows on sign-in too, which loads no Chakra runtime, and in a provider-mode world, where
 * there is no QA panel to say it.
 */
import { LEAVE_WORLD_URL } from '@/lib/world.ts';

export const WORLD_BADGE = {
  label: 'QA world',
  leave: 'Leave',
  leaveTitle: 'Leave this world: this tab goes back to the default world; other tabs stay where they are',
} as const;

export function WorldBadge({ id, name }: { id: string; name?: string }) {
  return (
    <aside className="fs-world-badge" aria-label={WORLD_BADGE.label} data-testid="qa-world-badge">
      <span className="fs-world-badge-name" title={id}>
        {WORLD_BADGE.label}: {name ?? id}
      </span>
      <a className="fs-world-badge-leave" href={LEAVE_WORLD_URL} title={WORLD_BADGE.leaveTitle}>
        {WORLD_BADGE.leave}
      </a>
    </aside>
  );
}
