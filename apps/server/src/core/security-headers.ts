/**
 * Security headers on everything the server answers (web app, assets, /config.json, the API).
 * helmet decides the headers and their values once, at start; one hook copies them onto every
 * reply (@fastify/helmet runs helmet's middleware chain per request, which cost ~60% of a bare
 * route's throughput). The Content-Security-Policy allows scripts only from this origin and lets
 * the page call only this origin and the provider URLs it announces in /config.json.
 * An API answer (a route whose config says `answers: 'api'`) carries the short set a JSON answer
 * needs instead (OWASP's for REST): no content at all if opened as a page, never framed, not sniffed.
 * Decisions (style-src, the altcha worker, HSTS, the API's set): docs/decisions/security.md, "The Content-Security-Policy".
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { RuntimeConfig } from '@md/shared';

type Directives = Record<string, string[]>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'api': the route answers JSON to programs (the contract's REST and tRPC), with the API's security headers. */
    answers?: 'api';
  }
}

/** A route's options for an API answer's headers. */
export const API_ROUTE = { config: { answers: 'api' } } as const;

/** Origins the web app calls besides its own: the provider URLs of /config.json that are absolute. */
export function providerOrigins(
  config: Pick<RuntimeConfig, 'apiBaseUrl' | 'depositBaseUrl' | 'walletCheckUrl'>,
): string[] {
  const origins = new Set<string>();
  for (const url of [config.apiBaseUrl, config.depositBaseUrl, config.walletCheckUrl]) {
    // Relative URLs ('' or '/__mock/…') are this origin, already 'self'.
    if (!URL.canParse(url)) continue;
    const { protocol, origin } = new URL(url);
    if (protocol === 'https:' || protocol === 'http:') origins.add(origin);
  }
  return [...origins];
}

/** The web app's policy. */
export function webAppDirectives(
  config: Pick<RuntimeConfig, 'apiBaseUrl' | 'depositBaseUrl' | 'walletCheckUrl'>,
  https: boolean,
): Directives {
  const origins = providerOrigins(config);
  return {
    'default-src': ["'self'"],
    // Module scripts from this origin only: the built index.html has no inline script.
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    // Emotion (Chakra UI) and next-themes insert <style> elements at run time.
    'style-src': ["'self'", "'unsafe-inline'"],
    // QR codes are data: images (this server's); a provider may link its own.
    'img-src': ["'self'", 'data:', ...origins],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...origins],
    // The forgot-username captcha (altcha) solves its proof of work in a worker made from a Blob.
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** Swagger UI at /docs (set by its plugin's staticCSP): scripts and styles from /docs/static, inline styles, data: images. */
export const DOCS_DIRECTIVES: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

export interface SecurityHeadersOptions {
  runtimeConfig: Pick<RuntimeConfig, 'apiBaseUrl' | 'depositBaseUrl' | 'walletCheckUrl'>;
  /** The public origin: HSTS and upgrade-insecure-requests only when it is https. */
  publicUrl: string;
}

/** The headers helmet's middleware would set (static options: nothing depends on the request). */
export function helmetHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) =>
      (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** A JSON answer opened as a page loads nothing and runs nothing; no page may frame it. */
const API_DIRECTIVES: Directives = {
  'default-src': ["'none'"],
  'frame-ancestors': ["'none'"],
};

export function registerSecurityHeaders(fastify: FastifyInstance, options: SecurityHeadersOptions) {
  const https = options.publicUrl.startsWith('https://');
  // What a document and an API answer both carry.
  const both = {
    // HSTS pins browsers to https for a year: only a deployment served over https may ask for it.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Same-site: a web app on a sibling host (provider mode in production) may still load images.
    crossOriginResourcePolicy: { policy: 'same-site' },
  } satisfies HelmetOptions;
  const documentHeaders = helmetHeaders({
    ...both,
    contentSecurityPolicy: { useDefaults: false, directives: webAppDirectives(options.runtimeConfig, https) },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
  });
  // What a document's headers do (isolate a browsing context, steer prefetching, legacy IE and
  // Flash, the old XSS auditor) means nothing to JSON; each was ~50 bytes on every call.
  const apiHeaders = helmetHeaders({
    ...both,
    contentSecurityPolicy: { useDefaults: false, directives: API_DIRECTIVES },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  // First of the hooks that may answer (a refused content type, a missing QA token), so their answers
  // carry the headers too; a request no route matched is a document's (it may be index.html).
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.routeOptions.config.answers === 'api' ? apiHeaders : documentHeaders);
    done();
  });
}
