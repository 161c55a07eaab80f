/**
 * Where a worker thread's code is: the TypeScript source through tsx (npm run dev), or the entry
 * esbuild wrote beside dist/main.js (npm start; build.mjs names it). Node's `new Worker(url, { argv })`
 * takes both as they are.
 *
 * `SERVER_WORKERS=bundle` makes a server running from its sources start the built entries too:
 * the tests set it once their run has built them (`node build.mjs --workers`), since tsx compiles a
 * thread's whole import graph again in each thread (~2 s a thread, against ~0.5 s for the bundle).
 */
export interface WorkerEntry {
  url: URL;
  argv: string[];
}

/** `source` is the module's URL (new URL('./x.ts', import.meta.url)); `bundled` its file name in dist. */
export function workerEntry(source: URL, bundled: string): WorkerEntry {
  if (!import.meta.url.endsWith('.ts')) return { url: new URL(`./${bundled}`, import.meta.url), argv: [] };
  if (process.env.SERVER_WORKERS === 'bundle')
    return { url: new URL(`../../dist/${bundled}`, import.meta.url), argv: [] };
  return { url: new URL('./worker-tsx.mjs', import.meta.url), argv: [source.href] };
}

/** A buffer's memory, when the buffer owns all of it: it moves to another thread without a copy. */
export function movable(data: Uint8Array | undefined): ArrayBuffer[] {
  return data && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength
    ? [data.buffer as ArrayBuffer]
    : [];
}
