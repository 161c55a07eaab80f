/**
 * How the built web app (apps/web/dist) is served. The build writes brotli and gzip copies of
 * every text asset next to it (apps/web/vite.config.ts), so answers are compressed without
 * spending CPU per request; files under /assets/ have a content hash in their name and never
 * change, so browsers keep them for a year without asking again. index.html, the service worker
 * (sw.js, and push-sw.js it imports) and the web app manifest are revalidated on every use.
 * Source maps (the build writes them) are served only when asked: production hides them unless
 * SOURCE_MAPS=on (config.ts), they carry the whole source.
 */
import type { FastifyStaticOptions } from '@fastify/static';

export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/**
 * The service worker script and the web app manifest keep their names from build to build: a
 * browser must ask again every time, or a new build's worker (and its update prompt) would wait
 * for a stale cached copy to expire.
 */
export const REVALIDATE_CACHE = 'no-cache';
const ALWAYS_REVALIDATED = /[\\/](sw\.js|push-sw\.js|manifest\.webmanifest|index\.html)(\.br|\.gz)?$/;

export const isSourceMap = (path: string) => /\.map$/i.test(path.split('?', 1)[0]!);

export const webAssetOptions = (
  root: string,
  { sourceMaps = true }: { sourceMaps?: boolean } = {},
): FastifyStaticOptions => ({
  root,
  preCompressed: true,
  // Refused here, a map is answered by the not-found handler: 404 under /assets/.
  ...(sourceMaps ? {} : { allowedPath: (path: string) => !isSourceMap(path) }),
  setHeaders: (reply, path) => {
    if (/[\\/]assets[\\/]/.test(path)) reply.header('cache-control', IMMUTABLE_CACHE);
    else if (ALWAYS_REVALIDATED.test(path)) reply.header('cache-control', REVALIDATE_CACHE);
    // The MIME type the manifest specification names (send would answer application/octet-stream).
    if (/\.webmanifest(\.br|\.gz)?$/.test(path))
      reply.header('content-type', 'application/manifest+json; charset=utf-8');
  },
});
