/**
 * A declared world state: a JSON document that says what a test needs (the clock's date, members
 * and their place in the trees, money, packages, withdrawals, 2FA, notifications), built by the
 * server through its domain functions. The schema checks each value; `parseWorldState` adds the
 * checks across values (who sponsors whom, dates in order, a withdrawal the wallet can pay) and
 * answers every fault at once, each named by its JSON path from `state`.
 */
import './zod-config.ts';
import { z } from 'zod';
import { MIN_DEPOSIT, MIN_WITHDRAWAL, PAYMENT_WINDOW_MINUTES, TEXT_MAX, WALLET_NAMES } from './constants.ts';
import { DEFAULT_PLAN, type Plan } from './plan.ts';
import { decimalPlaces } from './rules.ts';

/** The longest history a state may ask the engine to play (daily runs between `start` and `date`). */
export const WORLD_STATE_MAX_DAYS = 400;
/** Generated members over all legs: a leg 5,000 deep fits, a runaway document does not. */
export const WORLD_STATE_MAX_GENERATED = 20_000;
/** Caps on what one state may declare (a shared server builds it): members, generated legs, a chain's depth. */
export const WORLD_STATE_MAX_MEMBERS = 5_000;
export const WORLD_STATE_MAX_LEGS = 100;
export const WORLD_STATE_MAX_DEPTH = 10_000;
const cap = (what: string, max: number) => ({
  error: `At most ${max.toLocaleString('en-US')} ${what} (the cap of one state)`,
});
/** A purchase of the same package by the same member within this window is answered as the first (packages module). */
const PURCHASE_REPEAT_WINDOW_MS = 10_000;
const DAY_MS = 24 * 60 * 60 * 1000;

const instant = z.iso
  .datetime({ offset: true, error: 'Must be an ISO-8601 date-time such as 2026-05-01T09:00:00Z' })
  .describe('An ISO-8601 date-time with its zone, e.g. 2026-05-01T09:00:00Z');
const usdt = (what: string) =>
  z
    .number({ error: 'Must be a number of USDT' })
    .positive({ error: 'Must be more than 0' })
    .max(1_000_000_000, { error: 'Must be at most 1,000,000,000' })
    .refine((n) => decimalPlaces(n) <= 6, { error: 'At most 6 decimals' })
    .describe(what);
const username = z
  .string({ error: 'Must be a username' })
  .regex(/^[a-z0-9_]+$/, { error: 'Lowercase letters, digits and _ only' })
  .refine((v) => !/^\d+$/.test(v), { error: 'A username cannot be only digits' })
  .max(TEXT_MAX.username, { error: `At most ${TEXT_MAX.username} characters` });
const side = z
  .enum(['0', '1'], { error: "Must be '0' (left) or '1' (right)" })
  .describe("The binary leg, as the contract writes it: '0' left, '1' right");

const walletsSchema = z
  .strictObject(
    Object.fromEntries(
      WALLET_NAMES.map((w) => [w, usdt(`USDT credited to the ${w} wallet when the member joins`).optional()]),
    ) as Record<(typeof WALLET_NAMES)[number], z.ZodOptional<ReturnType<typeof usdt>>>,
  )
  .describe(
    `Opening balances, by the contract's wallet names (${WALLET_NAMES.join(', ')}): each is credited when the member joins by one ledger transfer of reason qa_credit from the system account qa_funding. Declared withdrawals draw on the Withdrawal wallet; the engine's incomes add to the reward wallets.`,
  );

const packageSchema = z
  .strictObject({
    plan: z
      .union([z.string().min(1).max(TEXT_MAX.plan), usdt('A price in USDT')])
      .describe("The package: the plan's name (e.g. 'Gold') or its price in USDT (e.g. 1000)"),
    at: instant.optional().describe('When it is bought (default: when the member joins)'),
  })
  .describe(
    'A package bought through the purchase function, paid by a deposit of its price made just before (so the Deposit wallet ends where it was)',
  );

const depositSchema = z
  .strictObject({
    amount: usdt(`The deposit in USDT (at least ${MIN_DEPOSIT})`),
    currency: z.enum(['USDT.BEP20', 'BNB.BSC']).optional().describe('Default USDT.BEP20'),
    status: z
      .enum(['PAID', 'PENDING', 'EXPIRED'])
      .optional()
      .describe(
        `PAID (default): paid in full as QA pays one; PENDING: its ${PAYMENT_WINDOW_MINUTES}-minute window is still open at the date; EXPIRED: its window lapsed unpaid`,
      ),
    at: instant
      .optional()
      .describe(
        'When it is opened (default: PAID at the date, PENDING a minute before it, EXPIRED when the member joins)',
      ),
  })
  .describe('A deposit window opened through the deposit function');

const withdrawalSchema = z
  .strictObject({
    amount: usdt(`The amount in USDT (at least ${MIN_WITHDRAWAL}), drawn from the Withdrawal wallet`),
    status: z
      .enum(['PENDING', 'APPROVED', 'REJECTED'])
      .optional()
      .describe('PENDING (default), or decided by QA: APPROVED pays it out, REJECTED refunds it'),
    address: z
      .string()
      .max(100)
      .optional()
      .describe('The BEP.20 destination (default: a fixed test address)'),
    at: instant.optional().describe('When it is requested (default: the date)'),
    decidedAt: instant.optional().describe('When QA decides it (default: when it is requested)'),
  })
  .describe('A withdrawal requested through the withdrawal function, then approved or rejected as QA does');

const notificationSchema = z
  .strictObject({
    type: z
      .string()
      .regex(/^[A-Za-z_]{1,40}$/, { error: 'Letters and _ only, e.g. System or Security_Alert' })
      .describe('The notification type as the contract shows it, e.g. System, Security_Alert'),
    message: z.string().min(1).max(1000).describe('The text the member reads'),
    at: instant.optional().describe('When it arrives (default: the date)'),
  })
  .describe('A notification sent through the notification function');

export const worldMemberSchema = z
  .strictObject({
    username: username.describe('Lowercase letters, digits and _; unique in the state'),
    name: z.string().min(1).max(TEXT_MAX.name).optional().describe('Default: the username'),
    email: z.email().max(TEXT_MAX.email).optional().describe('Default: <username>@example.com'),
    country: z.string().min(1).max(TEXT_MAX.country).optional().describe('Default: United Kingdom'),
    password: z
      .string()
      .min(6)
      .max(TEXT_MAX.password)
      .optional()
      .describe('Sign-in password (default: Demo@1234, the seeds’ password)'),
    sponsor: username
      .optional()
      .describe(
        'The sponsor: a member declared before this one. Absent: a root member (no sponsor, no side)',
      ),
    side: side
      .optional()
      .describe(
        "Leg of the sponsor the member is placed in (outer end of that leg): '0' left, '1' right; needed with a sponsor",
      ),
    joinedAt: instant
      .optional()
      .describe('When the member registers (default: start); not before its sponsor'),
    transactionPassword: z
      .string()
      .min(6)
      .max(TEXT_MAX.password)
      .optional()
      .describe('A transaction password, set as the member would have set it'),
    twoFactor: z
      .union([
        z.literal(true),
        z.strictObject({
          secret: z
            .string()
            .regex(/^[A-Z2-7]{16,64}$/, { error: 'A base32 secret: A–Z and 2–7, 16 to 64 characters' })
            .describe('The TOTP secret (base32), so a test can compute codes'),
        }),
      ])
      .optional()
      .describe(
        '2FA (TOTP) on: true for a fresh secret (read codes at GET /__qa/totp/<username>), or { secret }',
      ),
    wallets: walletsSchema.optional(),
    packages: z.array(packageSchema).max(100).optional().describe('Packages, bought in this order'),
    deposits: z.array(depositSchema).max(100).optional(),
    withdrawals: z
      .array(withdrawalSchema)
      .max(100)
      .optional()
      .describe('Withdrawals, requested in time order'),
    notifications: z.array(notificationSchema).max(200).optional(),
  })
  .describe('A member registered and placed by the registration and placement functions');

export const worldLegSchema = z
  .strictObject({
    under: username.describe(
      'The member the leg hangs under: a declared member, or one generated by an earlier leg',
    ),
    side: side,
    depth: z
      .number()
      .int()
      .min(1)
      .max(WORLD_STATE_MAX_DEPTH, cap('levels', WORLD_STATE_MAX_DEPTH))
      .describe(
        `Levels of the chain: each generated member sponsors the next on \`side\` (at most ${WORLD_STATE_MAX_DEPTH.toLocaleString('en-US')})`,
      ),
    count: z
      .number()
      .int()
      .min(1)
      .max(WORLD_STATE_MAX_GENERATED, cap('generated members', WORLD_STATE_MAX_GENERATED))
      .optional()
      .describe(
        `Members in all (default: depth): those past the chain join as directs of the chain members on the other side, top first, making a subtree (at most ${WORLD_STATE_MAX_GENERATED.toLocaleString('en-US')} over all legs)`,
      ),
    prefix: username
      .optional()
      .describe('Generated usernames are <prefix><n>, n from 1 (default: <under>_l or <under>_r)'),
    plan: z
      .union([z.string().min(1).max(TEXT_MAX.plan), usdt('A price in USDT')])
      .optional()
      .describe(
        'A package every generated member buys when it joins (name or price), adding binary and rank volume',
      ),
    at: instant.optional().describe('When the leg joins (default: when `under` joins)'),
  })
  .describe('A generated leg: a chain `depth` deep (and a subtree with `count`), password Demo@1234');

export const worldStateSchema = z
  .strictObject({
    $schema: z.string().optional().describe('The JSON Schema of this document (for editors); ignored'),
    date: instant.describe("The clock's date when the world is ready: everything declared happens by then"),
    start: instant
      .optional()
      .describe(
        `When the story starts (default: the date): members join then unless they say otherwise, and the engine's daily runs (ROI, binary, ranks) are played from start to date, at most ${WORLD_STATE_MAX_DAYS} days`,
      ),
    members: z
      .array(worldMemberSchema)
      .min(1)
      .max(WORLD_STATE_MAX_MEMBERS, cap('declared members', WORLD_STATE_MAX_MEMBERS))
      .describe(
        `Members, in the order they are registered (at most ${WORLD_STATE_MAX_MEMBERS.toLocaleString('en-US')})`,
      ),
    legs: z
      .array(worldLegSchema)
      .max(WORLD_STATE_MAX_LEGS, cap('legs', WORLD_STATE_MAX_LEGS))
      .optional()
      .describe(
        `Generated legs, built after the declared members join (at most ${WORLD_STATE_MAX_LEGS}, ${WORLD_STATE_MAX_GENERATED.toLocaleString('en-US')} members over all)`,
      ),
  })
  .describe('A declared world state: what a test needs, built through the domain functions');

export type WorldState = z.infer<typeof worldStateSchema>;
export type WorldMember = z.infer<typeof worldMemberSchema>;
export type WorldLeg = z.infer<typeof worldLegSchema>;

/** One fault: the JSON path from `state` and what is wrong there. */
export interface WorldStateFault {
  path: string;
  message: string;
}

export type ParsedWorldState =
  { success: true; state: WorldState } | { success: false; error: string; faults: WorldStateFault[] };

/** `state.members[2].sponsor` from zod's path. */
export function worldStatePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) =>
      typeof key === 'number'
        ? `${text}[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(String(key))
          ? `${text}.${String(key)}`
          : `${text}[${JSON.stringify(String(key))}]`,
    'state',
  );
}

/** The faults as one message: each `path: message`, joined. */
export const worldStateError = (faults: readonly WorldStateFault[]) =>
  faults.map((f) => `${f.path}: ${f.message}`).join('; ');

/** A plan package by name (any case) or price. */
export function findWorldPlan(plan: Pick<Plan, 'packages'>, ref: string | number) {
  return typeof ref === 'number'
    ? plan.packages.find((p) => p.price === ref)
    : plan.packages.find((p) => p.name.toLowerCase() === ref.toLowerCase());
}

/** Usernames of a leg's generated members, in order. */
export const legPrefix = (leg: Pick<WorldLeg, 'under' | 'side' | 'prefix'>) =>
  leg.prefix ?? `${leg.under}_${leg.side === '0' ? 'l' : 'r'}`;

/**
 * Parses a declared state: the schema first, then the checks across values. Answers the state, or
 * every fault with its path (`state.members[2].sponsor: Unknown member 'bob'`). `plan` names the
 * packages (the server passes its own plan; the default plan otherwise).
 */
export function parseWorldState(
  input: unknown,
  plan: Pick<Plan, 'packages'> = DEFAULT_PLAN,
): ParsedWorldState {
  const parsed = worldStateSchema.safeParse(input);
  if (!parsed.success) {
    const faults = parsed.error.issues.flatMap((issue): WorldStateFault[] => {
      if (issue.code === 'unrecognized_keys') {
        const where = issue.path.at(-1);
        return issue.keys.map((key) => ({
          path: worldStatePath([...issue.path, key]),
          message:
            where === 'wallets'
              ? `Unknown wallet '${key}' (known: ${WALLET_NAMES.join(', ')})`
              : `Unknown key '${key}'`,
        }));
      }
      return [{ path: worldStatePath(issue.path), message: issue.message }];
    });
    return { success: false, error: worldStateError(faults), faults };
  }
  const faults = worldStateFaults(parsed.data, plan);
  return faults.length > 0
    ? { success: false, error: worldStateError(faults), faults }
    : { success: true, state: parsed.data };
}

/** The checks the schema cannot make alone: references, order in time, money that must be there. */
export function worldStateFaults(state: WorldState, plan: Pick<Plan, 'packages'>): WorldStateFault[] {
  const faults: WorldStateFault[] = [];
  const fault = (path: readonly PropertyKey[], message: string) =>
    faults.push({ path: worldStatePath(path), message });
  const date = Date.parse(state.date);
  const start = state.start === undefined ? date : Date.parse(state.start);
  const iso = (ms: number) => new Date(ms).toISOString();
  if (start > date) fault(['start'], `Is after the date (${state.date})`);
  else if (date - start > WORLD_STATE_MAX_DAYS * DAY_MS)
    fault(['start'], `Is more than ${WORLD_STATE_MAX_DAYS} days before the date (the cap of one state)`);
  /** A time within [from, date], or a fault at `path`. */
  const within = (
    path: readonly PropertyKey[],
    value: string | undefined,
    from: number,
    fromText: string,
  ) => {
    if (value === undefined) return;
    const at = Date.parse(value);
    if (at > date) fault(path, `Is after the date (${state.date})`);
    else if (at < from) fault(path, `Is before ${fromText} (${iso(from)})`);
  };

  const joined = new Map<string, number>();
  state.members.forEach((m, i) => {
    const at = ['members', i] as const;
    if (joined.has(m.username)) fault([...at, 'username'], `Duplicate username '${m.username}'`);
    const joinedAt = m.joinedAt === undefined ? start : Date.parse(m.joinedAt);
    within([...at, 'joinedAt'], m.joinedAt, start, 'start');
    if (m.sponsor === undefined) {
      if (m.side !== undefined) fault([...at, 'side'], 'A member without a sponsor has no side');
    } else {
      const sponsorJoined = joined.get(m.sponsor);
      if (sponsorJoined === undefined)
        fault(
          [...at, 'sponsor'],
          state.members.some((o) => o.username === m.sponsor)
            ? `Member '${m.sponsor}' is declared after this one`
            : `Unknown member '${m.sponsor}'`,
        );
      else if (joinedAt < sponsorJoined)
        fault([...at, 'joinedAt'], `Is before its sponsor '${m.sponsor}' joins (${iso(sponsorJoined)})`);
      if (m.sponsor === m.username) fault([...at, 'sponsor'], 'A member cannot sponsor itself');
      if (m.side === undefined) fault([...at, 'side'], "A sponsored member needs a side: '0' or '1'");
    }
    if (!joined.has(m.username)) joined.set(m.username, joinedAt);
    const sinceJoin = (path: readonly PropertyKey[], value: string | undefined) =>
      within(path, value, joinedAt, 'the member joins');

    const bought: { name: string; at: number }[] = [];
    m.packages?.forEach((p, j) => {
      const path = [...at, 'packages', j] as const;
      sinceJoin([...path, 'at'], p.at);
      const pkg = findWorldPlan(plan, p.plan);
      if (!pkg)
        fault(
          [...path, 'plan'],
          `Unknown package ${JSON.stringify(p.plan)} (known: ${plan.packages.map((k) => `${k.name} ${k.price}`).join(', ')})`,
        );
      if (!pkg) return;
      const boughtAt = p.at === undefined ? joinedAt : Date.parse(p.at);
      if (bought.some((b) => b.name === pkg.name && Math.abs(b.at - boughtAt) < PURCHASE_REPEAT_WINDOW_MS))
        fault(
          [...path, 'at'],
          `A second ${pkg.name} within ${PURCHASE_REPEAT_WINDOW_MS / 1000} s of the first is answered as the first: give it another time`,
        );
      bought.push({ name: pkg.name, at: boughtAt });
    });

    m.deposits?.forEach((d, j) => {
      const path = [...at, 'deposits', j] as const;
      sinceJoin([...path, 'at'], d.at);
      if (d.amount < MIN_DEPOSIT) fault([...path, 'amount'], `A deposit is at least ${MIN_DEPOSIT}`);
      // The builder's defaults: PAID at the date, PENDING a minute before it, EXPIRED when the member joins.
      const opened =
        d.at !== undefined
          ? Date.parse(d.at)
          : d.status === 'PENDING'
            ? Math.max(joinedAt, date - 60_000)
            : d.status === 'EXPIRED'
              ? joinedAt
              : date;
      const window = PAYMENT_WINDOW_MINUTES * 60_000;
      if (d.status === 'PENDING' && d.at !== undefined && opened + window <= date)
        fault(
          [...path, 'at'],
          `A PENDING deposit's ${PAYMENT_WINDOW_MINUTES}-minute window must still be open at the date`,
        );
      if (d.status === 'EXPIRED' && opened + window > date)
        fault(
          [...path, 'at'],
          `An EXPIRED deposit's ${PAYMENT_WINDOW_MINUTES}-minute window must have ended by the date: open it earlier`,
        );
    });

    // The Withdrawal wallet gets its opening balance and refunds only: a request it cannot pay is a fault here.
    const moves: { at: number; change: number; path: readonly PropertyKey[]; amount: number }[] = [];
    m.withdrawals?.forEach((w, j) => {
      const path = [...at, 'withdrawals', j] as const;
      sinceJoin([...path, 'at'], w.at);
      const requested = w.at === undefined ? date : Date.parse(w.at);
      if (w.amount < MIN_WITHDRAWAL) fault([...path, 'amount'], `A withdrawal is at least ${MIN_WITHDRAWAL}`);
      if (w.decidedAt !== undefined) {
        if ((w.status ?? 'PENDING') === 'PENDING')
          fault([...path, 'decidedAt'], 'A PENDING withdrawal is not decided');
        else within([...path, 'decidedAt'], w.decidedAt, requested, 'its request');
      }
      const micros = Math.round(w.amount * 1e6);
      moves.push({ at: requested, change: -micros, path, amount: w.amount });
      if (w.status === 'REJECTED')
        moves.push({
          at: w.decidedAt === undefined ? requested : Date.parse(w.decidedAt),
          change: micros,
          path,
          amount: w.amount,
        });
    });
    let balance = Math.round((m.wallets?.Withdrawal ?? 0) * 1e6);
    for (const move of moves.sort((a, b) => a.at - b.at || b.change - a.change)) {
      balance += move.change;
      if (balance < 0) {
        fault(
          [...move.path, 'amount'],
          `${move.amount} is more than the Withdrawal wallet holds then (${(balance - move.change) / 1e6}; declare it in wallets.Withdrawal)`,
        );
        balance -= move.change;
      }
    }
    m.notifications?.forEach((n, j) => sinceJoin([...at, 'notifications', j, 'at'], n.at));
  });

  let generated = 0;
  const legTimes = legStarts(state);
  state.legs?.forEach((leg, i) => {
    const at = ['legs', i] as const;
    const underJoined = joined.get(leg.under);
    if (underJoined === undefined)
      fault(
        [...at, 'under'],
        `Unknown member '${leg.under}' (a declared member, or one generated by an earlier leg)`,
      );
    else within([...at, 'at'], leg.at, underJoined, `'${leg.under}' joins`);
    const count = leg.count ?? leg.depth;
    if (count < leg.depth) fault([...at, 'count'], `Is less than the depth (${leg.depth})`);
    if (leg.plan !== undefined && !findWorldPlan(plan, leg.plan))
      fault([...at, 'plan'], `Unknown package ${JSON.stringify(leg.plan)}`);
    generated += count;
    const prefix = legPrefix(leg);
    if (`${prefix}${count}`.length > TEXT_MAX.username)
      fault(
        [...at, 'prefix'],
        `Generated usernames (${prefix}${count}) would exceed ${TEXT_MAX.username} characters`,
      );
    // A generated name that meets a declared one or another leg's: the prefix is what makes them unique.
    const clash = [...joined.keys()].find(
      (name) =>
        name.startsWith(prefix) &&
        /^[1-9]\d*$/.test(name.slice(prefix.length)) &&
        Number(name.slice(prefix.length)) <= count,
    );
    if (clash) fault([...at, 'prefix'], `Generates '${clash}', a username already taken`);
    if (generated <= WORLD_STATE_MAX_GENERATED)
      for (let n = 1; n <= count; n++) joined.set(`${prefix}${n}`, legTimes[i]!);
  });
  if (generated > WORLD_STATE_MAX_GENERATED)
    fault(
      ['legs'],
      `Generate ${generated.toLocaleString('en-US')} members in all; at most ${WORLD_STATE_MAX_GENERATED.toLocaleString('en-US')} (the cap of one state)`,
    );
  return faults;
}

/**
 * When each leg is built: its `at`, else when the member it hangs under joins (a declared member's
 * joinedAt or the start; a generated one's leg time). NaN for a leg under a member not known by
 * then (a fault parseWorldState reports).
 */
export function legStarts(state: WorldState): number[] {
  const start = Date.parse(state.start ?? state.date);
  const joins = new Map(
    state.members.map((m) => [m.username, m.joinedAt === undefined ? start : Date.parse(m.joinedAt)]),
  );
  let generated = 0;
  return (state.legs ?? []).map((leg) => {
    const at = leg.at === undefined ? (joins.get(leg.under) ?? Number.NaN) : Date.parse(leg.at);
    const count = leg.count ?? leg.depth;
    generated += count;
    const prefix = legPrefix(leg);
    if (generated <= WORLD_STATE_MAX_GENERATED)
      for (let n = 1; n <= count; n++) joins.set(`${prefix}${n}`, at);
    return at;
  });
}

/** Where the JSON Schema file is kept, from the repository root (editors read it through `$schema`). */
export const WORLD_STATE_SCHEMA_FILE = 'packages/shared/world-state.schema.json';

/** The JSON Schema of a declared state, as committed in WORLD_STATE_SCHEMA_FILE (what a document may hold). */
export const worldStateJsonSchema = () =>
  ({
    $id: 'world-state.schema.json',
    title: 'Declared world state',
    ...z.toJSONSchema(worldStateSchema, { io: 'input', target: 'draft-2020-12' }),
  }) as Record<string, unknown>;
