import { useCallback, useEffect, useState } from 'react';

/**
 * A ref for an element and whether it has come within `margin` of the viewport (once true, it
 * stays true). A section below the fold renders only then, so its chunks, queries and drawing
 * stay out of a phone's first seconds (Lighthouse mobile TBT and LCP). Without
 * IntersectionObserver (jsdom) it is near at once.
 */
export function useNearViewport<T extends Element>(margin = '300px'): [(element: T | null) => void, boolean] {
  const [element, setElement] = useState<T | null>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, near, margin]);
  return [useCallback((node: T | null) => setElement(node), []), near];
}
