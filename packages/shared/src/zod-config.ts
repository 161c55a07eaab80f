/**
 * Imported first by every shared module that builds schemas. In a browser, zod 4 probes for
 * `new Function` (to compile fast object parsers) when an object schema is built; the web app's
 * Content-Security-Policy (script-src 'self', no 'unsafe-eval') refuses it and reports a
 * violation, so there zod interprets. The server keeps the compiled parsers.
 * Listed in package.json "sideEffects" so bundlers keep this import.
 */
// zod/mini's config is zod's one global config; importing it keeps the full API out of a bundle that needs only mini.
import * as z from 'zod/mini';

if ('document' in globalThis) z.config({ jitless: true });
