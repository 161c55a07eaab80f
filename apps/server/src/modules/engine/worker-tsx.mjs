/**
 * The daily runs' worker entry when the server runs from its TypeScript sources (npm run dev,
 * tests): Node 20 does not apply a loader given to a worker through execArgv, so tsx is
 * registered here, in the worker, before worker.ts is imported. The bundle (npm start) starts
 * dist/engine-worker.js instead.
 */
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
