/**
 * Imported first by every shared module that builds schemas. In a browser, zod 4 probes for
 * `new Function` (to compile fast object parsers) when an object schema is built; the web app's
 * Content-Security-Policy (script-src 'self', no 'unsafe-eval') refuses it and reports a
 * violation, so there zod interprets. The server keeps the compiled parsers.
 * Listed in package.json "sideEffects" so bundlers keep this import.
 */
import { z } from 'zod';

if ('document' in globalThis) z.config({ jitless: true });
