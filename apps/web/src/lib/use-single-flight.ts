/**
 * Sends a money action once, however it is clicked or tapped (issue 17). The lock is a ref set
 * before the first await: a `disabled` or `loading` state only lands with the next render, so two
 * clicks in one frame (a double tap, Enter then a click) would both reach the handler. A call made
 * while one is in flight gets that call's promise back and sends nothing.
 */
import { useCallback, useRef, useState } from 'react';

export function useSingleFlight() {
  const inFlight = useRef<Promise<unknown> | null>(null);
  const [pending, setPending] = useState(false);
  const run = useCallback(<T>(action: () => Promise<T>): Promise<T> => {
    if (inFlight.current) return inFlight.current as Promise<T>;
    // The action starts a microtask later, so the lock is held before any of its code runs
    // (even code that throws at once).
    const call = Promise.resolve()
      .then(action)
      .finally(() => {
        inFlight.current = null;
        setPending(false);
      });
    inFlight.current = call;
    setPending(true);
    return call;
  }, []);
  return { run, pending };
}
