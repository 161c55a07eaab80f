import { startTransition, useEffect, useState } from 'react';

/**
 * False for a screen's first render, true once the browser has painted it. A page renders what
 * lies below the fold only then: the first paint on a phone's CPU carries less React work and
 * less styling, so the content a member sees comes sooner (Lighthouse mobile LCP and TBT).
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    // A frame callback runs just before the next paint; a task queued from it runs after that paint.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reveal = () => (timer = setTimeout(() => startTransition(() => setPainted(true)), 0));
    const frame =
      typeof requestAnimationFrame === 'function' ? requestAnimationFrame(reveal) : (reveal(), undefined);
    return () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}
