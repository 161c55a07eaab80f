import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { useNearViewport } from './use-near-viewport.ts';

/** A stand-in IntersectionObserver whose entries the test sends. */
class FakeObserver {
  static last: FakeObserver | null = null;
  observed: Element[] = [];
  margin: string | undefined;
  constructor(
    private readonly callback: (entries: { isIntersecting: boolean }[]) => void,
    options?: { rootMargin?: string },
  ) {
    this.margin = options?.rootMargin;
    FakeObserver.last = this;
  }
  observe(element: Element) {
    this.observed.push(element);
  }
  disconnect() {
    this.observed = [];
  }
  send(isIntersecting: boolean) {
    act(() => this.callback([{ isIntersecting }]));
  }
}

function Probe() {
  const [ref, near] = useNearViewport<HTMLDivElement>();
  return <div ref={ref}>{near ? 'near' : 'far'}</div>;
}

afterEach(() => vi.unstubAllGlobals());

describe('useNearViewport', () => {
  it('is far until the element comes within the margin, then stays near and stops observing', () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    render(<Probe />);
    const observer = FakeObserver.last!;
    expect(screen.getByText('far')).toBeTruthy();
    expect(observer.observed).toHaveLength(1);
    expect(observer.margin).toBe('300px');
    observer.send(false);
    expect(screen.getByText('far')).toBeTruthy();
    observer.send(true);
    expect(screen.getByText('near')).toBeTruthy();
    expect(observer.observed).toHaveLength(0);
  });

  it('is near at once where there is no IntersectionObserver', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Probe />);
    expect(screen.getByText('near')).toBeTruthy();
  });
});
