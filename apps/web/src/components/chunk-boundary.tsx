/**
 * A lazy part of the app whose chunk could not be loaded: a message with Retry and Reload in its
 * place instead of a blank page, and the address left as it is (the member's place is kept).
 * Drawn with the first screen's classes (components/first-screen): the chunk that failed may be
 * Chakra's own.
 */
import { Component, lazy, useState, type ComponentProps, type ComponentType, type ReactNode } from 'react';
import { useT } from '@/lib/i18n/i18n.tsx';
import { ChunkLoadError, loadChunk } from '../lib/chunk-load.ts';
import { AuthCard } from './form/auth-card.tsx';

/** The title in English (tests); on screen it is `common.chunkError.title` in the member's language. */
export const CHUNK_ERROR_TITLE = 'This screen could not be loaded';

/**
 * The message. `frame`: 'screen' when nothing of the app's frame is on screen (the Chakra root or
 * the dashboard frame failed), 'page' inside the dashboard frame, whose navigation still works.
 */
export function ChunkError({ frame, onRetry }: { frame: 'screen' | 'page'; onRetry: () => void }) {
  const t = useT();
  const title = t('common.chunkError.title');
  const body = (
    <div className="fs-stack" data-testid="chunk-error">
      <p role="alert">{t('common.chunkError.body')}</p>
      <p className="fs-muted fs-small">{t('common.chunkError.hint')}</p>
      <button type="button" className="fs-button" onClick={onRetry}>
        {t('common.retry')}
      </button>
      <button type="button" className="fs-button-outline" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </button>
    </div>
  );
  if (frame === 'screen') return <AuthCard title={title}>{body}</AuthCard>;
  return (
    <section className="fs-stack" style={{ maxWidth: '28rem' }}>
      <h1 className="fs-heading">{title}</h1>
      {body}
    </section>
  );
}

/**
 * Shows `fallback` when a child's chunk failed to load (a ChunkLoadError); any other error is the
 * screen's own and goes on to the boundary above.
 */
export class ChunkBoundary extends Component<
  { children: ReactNode; fallback: ReactNode },
  { error: unknown }
> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (error instanceof ChunkLoadError) return this.props.fallback;
    throw error;
  }
}

/**
 * A lazy component whose load is tried a few times (lib/chunk-load.ts) and, when it still fails,
 * shows ChunkError; Retry loads it again. React.lazy keeps a failed load's error for good, so a
 * retry is a new lazy component, kept in the mounted element's state.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: any component.
export function retryingLazy<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
  frame: 'screen' | 'page',
): ComponentType<ComponentProps<T>> {
  const loadWithTries = () => loadChunk(load);
  // Made once, as a plain lazy() is: a screen shown again later renders at once from it.
  const first = lazy(loadWithTries);
  return function RetryingLazy(props: ComponentProps<T>) {
    const [tries, setTries] = useState({ count: 0, Loaded: first });
    const retry = () => setTries(({ count }) => ({ count: count + 1, Loaded: lazy(loadWithTries) }));
    return (
      <ChunkBoundary key={tries.count} fallback={<ChunkError frame={frame} onRetry={retry} />}>
        <tries.Loaded {...props} />
      </ChunkBoundary>
    );
  };
}
