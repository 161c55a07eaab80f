/**
 * A worker thread's entry when the server runs from its TypeScript sources (npm run dev, tests):
 * Node 20 does not apply a loader given to a worker through execArgv, so tsx is registered here,
 * in the worker, before the module named by the worker's last argv (a file URL) is imported.
 * The bundle (npm start) starts its own built entries instead (core/worker-module.ts).
 */
import { register } from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
