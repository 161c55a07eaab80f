/** Names for the shapes of the /__qa calls the helpers use, read from the generated paths. */
import type { components, paths } from './generated/qa-paths.ts';

type JsonOf<Body> = Body extends { content: { 'application/json': infer Json } } ? Json : never;

/** POST /__qa/worlds's body: where a world comes from and what it is like. */
export type WorldCreateBody = JsonOf<NonNullable<paths['/__qa/worlds']['post']['requestBody']>>;
/** A world as POST /__qa/worlds answers it (`enter` relative to the server). */
export type WorldInfo = JsonOf<paths['/__qa/worlds']['post']['responses'][201]>;
/** A declared state (world-states/ has examples). */
export type WorldState = components['schemas']['WorldState'];
/** What a world is made from: a scenario or `snapshot:<name>`, or a declared state. */
export type WorldSource = { from: string } | { state: WorldState };
/** The rest of a world's making: its name, client mode and idle time to live. */
export type WorldOptions = Omit<WorldCreateBody, 'from' | 'state'>;

/** A long operation (a declared state's build, a clock move that owes daily runs). */
export type Job = JsonOf<paths['/__qa/jobs/{id}']['get']['responses'][200]>;
/** GET /__qa/clock: now, and the next due run of each daily job. */
export type ClockReading = JsonOf<paths['/__qa/clock']['get']['responses'][200]>;
/** A clock move's answer: where the clock is, and the daily runs that fell due on the way. */
export type ClockMove = JsonOf<paths['/__qa/clock']['post']['responses'][200]>;
/** A mail the world sent, with the code it carries, if any. */
export type Mail = JsonOf<paths['/__qa/mailbox']['get']['responses'][200]>[number];
/** A Web Push the world queued for a member's device, and how its delivery went. */
export type Push = JsonOf<paths['/__qa/pushes']['get']['responses'][200]>[number];
/** A fault or latency rule as POST /__qa/faults takes it. */
export type FaultRuleInput = JsonOf<NonNullable<paths['/__qa/faults']['post']['requestBody']>>;
/** A fault rule in force, with its id and how often it applied. */
export type FaultRule = JsonOf<paths['/__qa/faults']['post']['responses'][201]>;
