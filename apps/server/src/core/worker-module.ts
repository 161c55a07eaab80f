/**
 * Where a worker thread's code is: the TypeScript source through tsx (npm run dev, tests:
 * worker-tsx.mjs registers it inside the thread), or the entry esbuild wrote beside dist/main.js
 * (npm start; build.mjs names it). Node's `new Worker(url, { argv })` takes both as they are.
 */
export interface WorkerEntry {
  url: URL;
  argv: string[];
}

/** `source` is the module's URL (new URL('./x.ts', import.meta.url)); `bundled` its file name in dist. */
export function workerEntry(source: URL, bundled: string): WorkerEntry {
  return import.meta.url.endsWith('.ts')
    ? { url: new URL('./worker-tsx.mjs', import.meta.url), argv: [source.href] }
    : { url: new URL(`./${bundled}`, import.meta.url), argv: [] };
}

/** A buffer's memory, when the buffer owns all of it: it moves to another thread without a copy. */
export function movable(data: Uint8Array | undefined): ArrayBuffer[] {
  return data && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength
    ? [data.buffer as ArrayBuffer]
    : [];
}
