/**
 * Every screen past sign-in waits here for the rest of the language's catalogs (sign-in boots with
 * their first part: lib/i18n/catalogs.ts). When they cannot be loaded the screen says so with Retry,
 * as for any chunk; the failed load is not tried again behind the member's back, only on Retry.
 */
import { use, useState, type ReactNode } from 'react';
import { ChunkBoundary, ChunkError } from '../components/chunk-boundary.tsx';
import { useWholeCatalogs } from '../lib/i18n/i18n.tsx';

export function WholeCatalogs({ children }: { children: ReactNode }) {
  const { whole } = useWholeCatalogs();
  const [attempt, setAttempt] = useState(0);
  if (whole) return children;
  return (
    <ChunkBoundary
      key={attempt}
      fallback={<ChunkError frame="screen" onRetry={() => setAttempt((tried) => tried + 1)} />}
    >
      <AwaitWholeCatalogs attempt={attempt} />
    </ChunkBoundary>
  );
}

/** Suspends until the attempt's load is in (the provider then renders the screen), or throws its failure. */
function AwaitWholeCatalogs({ attempt }: { attempt: number }) {
  use(useWholeCatalogs().loadWhole(attempt));
  return null;
}
