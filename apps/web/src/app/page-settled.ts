import { useEffect, useState } from 'react';

/**
 * How long after the page's load event the service worker starts. Its install downloads the whole
 * build (~0.4 MB compressed) to precache it: started at the load event, it ran beside the
 * dashboard's first render, lazy chunks and reads, and Lighthouse's mobile TBT on the dashboard
 * went from ~1.6 s to ~5 s in the same runs. Ten seconds on, the first screen has settled.
 */
export const WORKER_START_DELAY_MS = 10_000;

/** True once the page has loaded and then WORKER_START_DELAY_MS has passed. */
export function usePageSettled() {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onLoad = () => (timer = setTimeout(() => setSettled(true), WORKER_START_DELAY_MS));
    if (document.readyState === 'complete') onLoad();
    else window.addEventListener('load', onLoad, { once: true });
    return () => {
      window.removeEventListener('load', onLoad);
      clearTimeout(timer);
    };
  }, []);
  return settled;
}
