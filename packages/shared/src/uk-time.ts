/**
 * UK calendar arithmetic (Europe/London, daylight saving followed) through Intl alone, so the
 * browser needs no time-zone library: the week and month a team's newcomers are counted in, and
 * when the next 11:00 UK binary run falls where the server does not say (the provider). The
 * stand-in's engine keeps its own schedule (modules/engine/schedule.ts); a server test holds the
 * two equal across the daylight-saving changes.
 */
export const UK_ZONE = 'Europe/London';
/** The binary matching run's UK wall-clock time (DESIGN §5). */
export const BINARY_RUN_UK = { hour: 11, minute: 0 } as const;

const parts = new Intl.DateTimeFormat('en-GB', {
  timeZone: UK_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  weekday: 'short',
});
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The UK wall-clock reading of an instant. */
export function ukWallClock(instant: number) {
  const read = Object.fromEntries(parts.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return {
    year: Number(read.year),
    month: Number(read.month),
    day: Number(read.day),
    hour: Number(read.hour),
    minute: Number(read.minute),
    second: Number(read.second),
    weekday: WEEKDAYS.indexOf(read.weekday ?? ''),
  };
}

/** The instant the UK clock reads this wall-clock time (month from 1; days past the month's end roll over). */
export function ukInstant(year: number, month: number, day: number, hour = 0, minute = 0): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const offsetAt = (instant: number) => {
    const w = ukWallClock(instant);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - instant;
  };
  // The offset of the guess decides; asked twice so a time just after a change gets the new offset.
  const guess = asUtc - offsetAt(asUtc);
  return asUtc - offsetAt(guess);
}

/** Monday 00:00 and the 1st 00:00 (UK time) of the week and month holding `now`. */
export function ukWeekAndMonthStart(now: number): { week: number; month: number } {
  const w = ukWallClock(now);
  const sinceMonday = (w.weekday + 6) % 7;
  return { week: ukInstant(w.year, w.month, w.day - sinceMonday), month: ukInstant(w.year, w.month, 1) };
}

/** The first 11:00 UK time after `now`: the next binary matching run. */
export function nextUkBinaryRun(now: number): number {
  const w = ukWallClock(now);
  for (let days = 0; ; days++) {
    const at = ukInstant(w.year, w.month, w.day + days, BINARY_RUN_UK.hour, BINARY_RUN_UK.minute);
    if (at > now) return at;
  }
}
