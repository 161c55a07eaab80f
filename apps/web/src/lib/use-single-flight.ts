/**
 * Sends a money action once, however it is clicked or tapped (a double tap must not pay twice). The lock is a ref set
 * before the first await: a `disabled` or `loading` state only lands with the next render, so two
 * clicks in one frame (a double tap, Enter then a click) would both reach the handler. A call made
 * while the lock is held gets the held call's promise back and sends nothing.
 *
 * `holdMs` keeps the lock for at least that long after the call starts, even when it answers sooner
 * (the spec's swap submit guard waits 10,000 ms); it never releases a call still in flight.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export function useSingleFlight(holdMs = 0) {
  const held = useRef<Promise<unknown> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** The lock is held (the call is in flight, or its hold has not run out). */
  const [pending, setPending] = useState(false);
  /** The call itself is in flight. */
  const [sending, setSending] = useState(false);
  useEffect(() => () => clearTimeout(timer.current), []);
  const run = useCallback(
    <T>(action: () => Promise<T>): Promise<T> => {
      if (held.current) return held.current as Promise<T>;
      const started = Date.now();
      // The action starts a microtask later, so the lock is held before any of its code runs
      // (even code that throws at once).
      const call = Promise.resolve().then(action);
      held.current = call;
      setPending(true);
      setSending(true);
      const release = () => {
        held.current = null;
        setPending(false);
      };
      call
        .finally(() => {
          setSending(false);
          const left = holdMs - (Date.now() - started);
          if (left > 0) timer.current = setTimeout(release, left);
          else release();
        })
        // The caller handles the call's own outcome; this branch only releases the lock.
        .catch(() => undefined);
      return call;
    },
    [holdMs],
  );
  return { run, pending, sending };
}
