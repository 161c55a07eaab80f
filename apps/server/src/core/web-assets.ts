/**
 * How the built web app (apps/web/dist) is served. The build writes brotli and gzip copies of
 * every text asset next to it (apps/web/vite.config.ts), so answers are compressed without
 * spending CPU per request; files under /assets/ have a content hash in their name and never
 * change, so browsers keep them for a year without asking again. index.html is revalidated.
 */
import type { FastifyStaticOptions } from '@fastify/static';

export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

export const webAssetOptions = (root: string): FastifyStaticOptions => ({
  root,
  preCompressed: true,
  setHeaders: (reply, path) => {
    if (/[\\/]assets[\\/]/.test(path)) reply.header('cache-control', IMMUTABLE_CACHE);
  },
});
