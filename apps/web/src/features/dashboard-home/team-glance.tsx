/**
 * The home's glance at the member's business: the team in numbers and the next binary run.
 *
 * With the server's `team_summary` and `binary_next_run` capabilities (the stand-in), the figures
 * are the server's: both legs counted whole, each direct's package, the countdown on the server
 * clock (the one the daily runs follow, which QA moves). Without them (the provider), what the
 * spec's endpoints allow, and said so: the directs from the direct team call, counted per leg
 * (no call counts a whole leg), no package; the countdown on this device's clock to 11:00 UK time
 * and the carry from the member's own node details.
 *
 * Drawn with the first screen's classes (components/first-screen), Chakra's looks without its
 * runtime's style resolution: the largest part of the home, drawn again as each of its reads answers.
 */
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { nextUkBinaryRun, ukClock, ukWeekAndMonthStart, type Formatters } from '@md/shared';
import { Unavailable } from '@/components/unavailable.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
import { listOf, numberOf, recordOf, textOf } from '@/lib/guards.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { Section } from './section.tsx';

interface Leg {
  members: number;
  active: number;
  inactive: number;
  week: number;
  month: number;
}
interface Direct {
  username: string;
  joined: string;
  side: '0' | '1';
  /** Undefined where the server does not say (the provider). */
  pkg: string | null | undefined;
  active: boolean;
}
interface Team {
  /** 'legs': whole legs counted by the server; 'directs': the directs alone (the provider). */
  scope: 'legs' | 'directs';
  left: Leg;
  right: Leg;
  directCount: number;
  directs: Direct[];
}

const legOf = (value: unknown): Leg => {
  const leg = recordOf(value);
  return {
    members: numberOf(leg?.Members) ?? 0,
    active: numberOf(leg?.Active) ?? 0,
    inactive: numberOf(leg?.Inactive) ?? 0,
    week: numberOf(leg?.New_This_Week) ?? 0,
    month: numberOf(leg?.New_This_Month) ?? 0,
  };
};
const sideOf = (value: unknown): '0' | '1' => (textOf(value) === '1' ? '1' : '0');

/** The directs counted per leg, this week and month on the UK calendar of this device's clock. */
function legsOfDirects(directs: readonly Direct[], now: number): { left: Leg; right: Leg } {
  const { week, month } = ukWeekAndMonthStart(now);
  const count = (side: '0' | '1'): Leg => {
    const onSide = directs.filter((d) => d.side === side);
    const joined = onSide.map((d) => Date.parse(d.joined));
    const active = onSide.filter((d) => d.active).length;
    return {
      members: onSide.length,
      active,
      inactive: onSide.length - active,
      week: joined.filter((at) => at >= week).length,
      month: joined.filter((at) => at >= month).length,
    };
  };
  return { left: count('0'), right: count('1') };
}

/** Directs listed on the home (the server lists at most its 100 newest). */
const DIRECTS_SHOWN = 8;
/** Every direct, a page at a time: the Level Chart's first level is the member's directs. */
const ALL_DIRECTS_PATH = '/dashboard/levelchart';

function useTeam() {
  const trpc = useTRPC();
  const served = hasCapability(useConfig(), 'team_summary');
  const summary = useQuery({
    ...trpc['team.view_team_summary'].queryOptions({}),
    enabled: served,
    retry: false,
  });
  const directs = useQuery({
    ...trpc['direct.view_direct_team_details'].queryOptions({}),
    enabled: !served,
    retry: false,
  });
  const query = served ? summary : directs;
  let team: Team | undefined;
  if (served && summary.data) {
    const success = recordOf(recordOf(summary.data)?.Success);
    const list = recordOf(success?.Directs);
    team = {
      scope: 'legs',
      left: legOf(success?.Left),
      right: legOf(success?.Right),
      directCount: numberOf(list?.Count) ?? 0,
      directs: listOf(list?.Rows).map((row) => ({
        username: textOf(row.Username),
        joined: textOf(row.Joined),
        side: sideOf(row.Side),
        pkg: typeof row.Package === 'string' ? row.Package : null,
        active: row.Status === 'ACTIVE',
      })),
    };
  } else if (!served && directs.data) {
    const rows: Direct[] = listOf(recordOf(directs.data)?.Success).map((row) => ({
      username: textOf(row.Username),
      joined: textOf(row.Created_On),
      side: sideOf(row.Side),
      pkg: undefined,
      active: row.Status === true,
    }));
    // The spec lists them oldest first; the home shows the newest.
    const newest = [...rows].sort((a, b) => Date.parse(b.joined) - Date.parse(a.joined));
    team = {
      scope: 'directs',
      ...legsOfDirects(rows, Date.now()),
      directCount: rows.length,
      directs: newest,
    };
  }
  return {
    team,
    isPending: query.isPending,
    isError: query.isError,
    isFetching: query.isFetching,
    refetch: query.refetch,
  };
}

/** A message as text (useT's). */
type Translate = ReturnType<typeof useT>;

function LegCard({ side, leg, scope }: { side: 'left' | 'right'; leg: Leg; scope: Team['scope'] }) {
  const t = useT();
  const f = useFormat();
  const title = t(side === 'left' ? 'home.team.leftLeg' : 'home.team.rightLeg');
  // [test id (the English label's), label, figure]
  const rows = [
    [
      scope === 'legs' ? 'members' : 'directs',
      t(scope === 'legs' ? 'home.team.members' : 'home.team.directs'),
      leg.members,
    ],
    ['active', t('common.active'), leg.active],
    ['inactive', t('common.inactive'), leg.inactive],
    ['new-this-week', t('home.team.newThisWeek'), leg.week],
    ['new-this-month', t('home.team.newThisMonth'), leg.month],
  ] as const;
  return (
    <div className="fs-card-sm" data-testid={`team-leg-${side}`}>
      <div className="fs-card-sm-body">
        <h3 className="fs-card-title">{title}</h3>
        <dl className="fs-stack-1 fs-small fs-flush">
          {rows.map(([id, label, value]) => (
            <div key={id} className="fs-spread">
              <dt className="fs-muted">{label}</dt>
              <dd className="fs-strong fs-flush" data-testid={`leg-${id}`}>
                {f.number(value)}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}

function TeamNumbers({
  team: { team, isPending, isError, isFetching, refetch },
}: {
  team: ReturnType<typeof useTeam>;
}) {
  const t = useT();
  const f = useFormat();
  const shown = team ? team.directs.slice(0, DIRECTS_SHOWN) : [];
  return (
    <Section title={t('home.team.title')}>
      {isPending ? (
        <div
          key="skeleton"
          className="fs-skeleton fs-skeleton-team"
          role="status"
          aria-label={t('home.team.loading')}
        />
      ) : isError || !team ? (
        <Unavailable
          what={t('home.team.title')}
          onRetry={() => void refetch()}
          retrying={isFetching}
          size="md"
        />
      ) : (
        // Keyed apart from the skeleton: a new element, not the skeleton's box restyled (a layout shift).
        <div key="team" className="fs-stack" data-testid="team-numbers" data-scope={team.scope}>
          {team.scope === 'directs' && (
            <p className="fs-small fs-muted" data-testid="team-fallback-note">
              {t('home.team.fallbackNote', { count: team.directCount })}
            </p>
          )}
          <div className="fs-pair-grid">
            <LegCard side="left" leg={team.left} scope={team.scope} />
            <LegCard side="right" leg={team.right} scope={team.scope} />
          </div>
          <div className="fs-card-sm">
            <div className="fs-card-sm-body">
              <h3 className="fs-card-title">
                {t('home.team.directsHeading', { count: f.number(team.directCount) })}
              </h3>
              {shown.length === 0 ? (
                <p className="fs-muted">{t('home.team.noDirects')}</p>
              ) : (
                <ul className="fs-stack-2 fs-flush" data-testid="team-directs">
                  {shown.map((direct) => (
                    <li key={direct.username} className="fs-direct">
                      <p className="fs-direct-name">{direct.username}</p>
                      <span className={direct.active ? 'fs-badge-teal' : 'fs-badge-gray'}>
                        {t(direct.active ? 'common.active' : 'common.inactive')}
                      </span>
                      <p className="fs-small fs-muted fs-full">
                        {direct.pkg === undefined
                          ? t('home.team.directLine', {
                              side: t(direct.side === '0' ? 'common.left' : 'common.right'),
                              date: f.dateTime(direct.joined),
                            })
                          : t('home.team.directLineWithPackage', {
                              side: t(direct.side === '0' ? 'common.left' : 'common.right'),
                              date: f.dateTime(direct.joined),
                              package: direct.pkg ?? t('home.team.noPackage'),
                            })}
                      </p>
                    </li>
                  ))}
                </ul>
              )}
              {/* The count is every direct, the list its newest: say so, and lead to the whole list. */}
              {team.directCount > shown.length && (
                <div className="fs-directs-more">
                  <p className="fs-small fs-muted" data-testid="team-directs-shown">
                    {t('home.team.shown', {
                      shown: f.number(shown.length),
                      total: f.number(team.directCount),
                    })}
                  </p>
                  <RouterLink to={ALL_DIRECTS_PATH} className="fs-button-outline-sm-teal">
                    {t('home.team.viewAll', { total: f.number(team.directCount) })}
                  </RouterLink>
                </div>
              )}
            </div>
          </div>
        </div>
      )}
    </Section>
  );
}

/** "3 h 05 min" to go, or "59 min 09 s" under an hour: seconds drop once an hour or more is left. */
export function formatCountdown(ms: number, t: Translate): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0
    ? t('home.run.hoursMinutes', { h: String(h), m: pad(m) })
    : t('home.run.minutesSeconds', { m: String(m), s: pad(s) });
}

/** Milliseconds until formatCountdown's text for `next` changes at `clock` (a second while it is unknown or due). */
export function untilCountdownChanges(next: number | undefined, clock: number): number {
  const left = next === undefined ? 0 : next - clock;
  if (left <= 0) return 1000;
  const step = left >= 3_600_000 ? 60_000 : 1000;
  return (left % step) + 1;
}

/** What to add where: the weaker leg needs the difference of the carries to match the other's. */
export function weakerLegHint(left: number, right: number, t: Translate, f: Formatters): string {
  if (left === right) return t(left === 0 ? 'home.run.hintNone' : 'home.run.hintSame');
  return left < right
    ? t('home.run.hintLeft', { amount: f.money(right - left) })
    : t('home.run.hintRight', { amount: f.money(left - right) });
}

function useNextRun() {
  const trpc = useTRPC();
  const served = hasCapability(useConfig(), 'binary_next_run');
  const username = useAuth().user?.username ?? '';
  const run = useQuery({ ...trpc['binary.view_next_run'].queryOptions({}), enabled: served, retry: false });
  const details = useQuery({
    ...trpc['binary.view_binary_downline_details'].queryOptions({ username }),
    enabled: !served && username !== '',
    retry: false,
  });
  // The server's clock less this device's when it answered: the countdown runs on the server's time.
  const [skew, setSkew] = useState(0);
  const success = recordOf(recordOf(run.data)?.Success);
  const serverNow = Date.parse(textOf(success?.Now));
  useEffect(() => {
    if (Number.isFinite(serverNow)) setSkew(serverNow - Date.now());
  }, [serverNow]);
  if (served) {
    const next = Date.parse(textOf(success?.Next_Run));
    return {
      served,
      next: Number.isFinite(next) ? next : undefined,
      skew,
      carry: success
        ? { left: numberOf(success.Left_Carry) ?? 0, right: numberOf(success.Right_Carry) ?? 0 }
        : undefined,
      isPending: run.isPending,
      isError: run.isError,
      refetch: run.refetch,
    };
  }
  // The member's own node: Current_Binary is [left, right] carry (spec §7).
  const current: unknown = recordOf(recordOf(details.data)?.Success)?.Current_Binary;
  const pair = Array.isArray(current) ? (current as unknown[]) : undefined;
  return {
    served,
    next: undefined,
    skew: 0,
    carry: pair ? { left: numberOf(pair[0]) ?? 0, right: numberOf(pair[1]) ?? 0 } : undefined,
    isPending: details.isPending,
    isError: details.isError,
    refetch: details.refetch,
  };
}

function NextBinaryRun({
  run: { served, next: servedNext, skew, carry, isPending, isError, refetch },
}: {
  run: ReturnType<typeof useNextRun>;
}) {
  const t = useT();
  const f = useFormat();
  const [now, setNow] = useState(() => Date.now());
  const clock = now + skew;
  // The provider does not say: the next 11:00 UK time on this device's clock.
  const next = served ? servedNext : nextUkBinaryRun(clock);
  const due = next !== undefined && next <= clock;
  useEffect(() => {
    // The card is drawn again when its countdown's text changes, not every second: hours and
    // minutes change once a minute.
    const timer = window.setTimeout(() => setNow(Date.now()), untilCountdownChanges(next, clock));
    return () => window.clearTimeout(timer);
  }, [next, clock]);
  useEffect(() => {
    // Past the run: ask the server again (it names the following one, and the new carry).
    if (served && due) void refetch();
  }, [served, due, refetch]);
  return (
    <Section title={t('home.run.title')}>
      <div className="fs-card-sm" data-testid="next-binary-run">
        <div className="fs-card-sm-body">
          <div className="fs-stack-2">
            {next === undefined ? (
              isError ? (
                <Unavailable what={t('home.run.title')} onRetry={() => void refetch()} />
              ) : (
                <div
                  className="fs-skeleton fs-skeleton-line"
                  role="status"
                  aria-label={t('home.run.loading')}
                />
              )
            ) : (
              <>
                <p
                  className="fs-countdown"
                  role="timer"
                  aria-label={t('home.run.timerLabel')}
                  data-testid="run-countdown"
                >
                  {due
                    ? t('home.run.runningNow')
                    : t('home.run.in', { time: formatCountdown(next - clock, t) })}
                </p>
                <p className="fs-small fs-muted" data-testid="run-time">
                  {/* The member's own time, the zone named, and the UK time the runs keep. */}
                  {t(served ? 'home.run.at' : 'home.run.atOnDevice', ukClock(next, f))}
                </p>
              </>
            )}
            {carry ? (
              <>
                <p data-testid="weaker-leg-hint">{weakerLegHint(carry.left, carry.right, t, f)}</p>
                <p className="fs-small fs-muted" data-testid="run-carry">
                  {t('home.run.carry', { left: f.money(carry.left), right: f.money(carry.right) })}
                </p>
              </>
            ) : isPending ? (
              <div
                className="fs-skeleton fs-skeleton-short"
                role="status"
                aria-label={t('home.run.loadingCarry')}
              />
            ) : isError && next !== undefined ? (
              <Unavailable what={t('home.run.carryWhat')} onRetry={() => void refetch()} />
            ) : null}
          </div>
        </div>
      </div>
    </Section>
  );
}

/**
 * Both, the countdown first (a phone reads it before the team's long list), the team beside it from
 * lg: a chunk of its own, loaded after the home's first paint. `onSettled` is called once both reads
 * have answered or failed, when the glance has its final height: the home shows what stands below
 * it only then, so the team's list growing out of its skeleton moves nothing on screen.
 */
export default function TeamGlance({ onSettled }: { onSettled: () => void }) {
  const team = useTeam();
  const run = useNextRun();
  const settled = !team.isPending && !run.isPending;
  useEffect(() => {
    if (settled) onSettled();
  }, [settled, onSettled]);
  return (
    <div className="fs-glance">
      <div className="fs-glance-run">
        <NextBinaryRun run={run} />
      </div>
      <div className="fs-glance-team">
        <TeamNumbers team={team} />
      </div>
    </div>
  );
}
