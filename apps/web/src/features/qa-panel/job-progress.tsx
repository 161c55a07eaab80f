/**
 * A long operation the panel follows (DESIGN §10: a job is a 202, a URL with state and progress,
 * and a cancel, shared by the API and the panel): a clock move that owes daily runs, a world
 * built from a declared state.
 *
 * useFollowedJob holds the job a tab started and long-polls it (GET /__qa/jobs/:id?wait=2: the
 * server answers when it ends, or after 2 s with its progress), until it ends, the tab unmounts,
 * or an hour has passed. A running job is kept in sessionStorage by slot and world, so a tab
 * switched away and back (the panel unmounts its tabs) follows it again instead of forgetting it.
 * JobProgress shows it: a bar per unit ("Runs 3 of 7"), Cancel, then the result, the error or
 * "Cancelled".
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Badge, Box, Button, Flex, Progress, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { ProgressMeter } from '@/components/progress/progress-meter.tsx';
import { useConfig } from '@/lib/config.tsx';
import { qaApi, qaKeys, QaError, type QaJob, type QaJobState } from './qa-api.ts';
import { ErrorNote, messageOf, useQaAction } from './parts.tsx';

/** How the panel follows a job (an object, as worldDoor: one place to read the timings). */
export const JOB_FOLLOW = {
  /** Each GET is a long poll of this many seconds: the panel is never busy-looping. */
  waitSeconds: 2,
  /** The least time between two polls, should a server answer a running job at once. */
  minIntervalMs: 1000,
  /** After a poll that failed (the server restarting), the next one. */
  retryMs: 2000,
  /** A tab follows a job this long at most. */
  limitMs: 60 * 60_000,
};

const UNIT_LABELS: Record<string, string> = { runs: 'Runs', members: 'Members' };
const STATE_LABELS: Record<QaJobState, string> = {
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
const STATE_COLORS: Record<QaJobState, string> = {
  running: 'purple',
  done: 'green',
  failed: 'red',
  cancelled: 'gray',
};
const count = new Intl.NumberFormat('en-GB');

interface Followed<T> {
  job: QaJob<T>;
  /** What the tab called it ('+1 day', 'Building a world'). */
  label: string;
}

// sessionStorage can throw (storage disabled): the job is then followed only while the tab is shown.
function readKept<T>(key: string): Followed<T> | null {
  try {
    const kept = sessionStorage.getItem(key);
    return kept ? (JSON.parse(kept) as Followed<T>) : null;
  } catch {
    return null;
  }
}
function keep<T>(key: string, followed: Followed<T> | null) {
  try {
    if (followed) sessionStorage.setItem(key, JSON.stringify(followed));
    else sessionStorage.removeItem(key);
  } catch {
    // Followed while shown only.
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface FollowedJob<T> {
  job: QaJob<T> | null;
  label: string;
  /** Running: the tab should not start another one beside it. */
  running: boolean;
  /** Why the panel stopped following a job that may still run (unknown to the server, an hour passed). */
  lost: string | null;
  /** The last poll failed; the next one is on its way. */
  pollError: unknown;
  follow: (job: QaJob<T>, label: string) => void;
  /** Forgets the job (a new answer replaces it). */
  clear: () => void;
  cancel: () => void;
  cancelling: boolean;
  /** Why Cancel failed (not a 409: that job has just ended, and the next poll says how). */
  cancelError: unknown;
}

/**
 * Follows the job of one `slot` of a tab ('clock', 'world'). When it ends, the panel's queries
 * are refreshed, and every query of the app with `changesData` (a clock move pays members).
 */
export function useFollowedJob<T>(
  slot: string,
  options: { changesData: boolean; onEnd?: (job: QaJob<T>) => void },
): FollowedJob<T> {
  const key = `qaJob:${slot}:${useConfig().qaWorld ?? 'default'}`;
  const [followed, setFollowed] = useState<Followed<T> | null>(() => readKept<T>(key));
  const [lost, setLost] = useState<string | null>(null);
  const [pollError, setPollError] = useState<unknown>(null);
  const queryClient = useQueryClient();
  const latest = useRef({ options, key });
  latest.current = { options, key };

  /** A job's end, seen by a poll or by Cancel's answer: whichever comes first, once. */
  const ended = useRef(new Set<string>());
  const end = useCallback(
    (job: QaJob<T>) => {
      setFollowed((now) => (now && now.job.id === job.id ? { ...now, job } : now));
      if (ended.current.has(job.id)) return;
      ended.current.add(job.id);
      keep(latest.current.key, null);
      setPollError(null);
      const { changesData, onEnd } = latest.current.options;
      void queryClient.invalidateQueries(changesData ? undefined : { queryKey: qaKeys.all });
      onEnd?.(job);
    },
    [queryClient],
  );
  const endRef = useRef(end);
  endRef.current = end;

  const runningId = followed?.job.state === 'running' ? followed.job.id : null;
  useEffect(() => {
    if (runningId === null) return;
    let live = true;
    const deadline = Date.now() + JOB_FOLLOW.limitMs;
    void (async () => {
      while (live) {
        if (Date.now() >= deadline) {
          setLost(
            `Still running after an hour: the panel stopped following it (GET /__qa/jobs/${runningId}).`,
          );
          return;
        }
        const asked = Date.now();
        try {
          const job = await qaApi.job<T>(runningId, JOB_FOLLOW.waitSeconds);
          if (!live) return;
          setPollError(null);
          if (job.state !== 'running') {
            endRef.current(job);
            return;
          }
          setFollowed((now) => (now && now.job.id === job.id ? { ...now, job } : now));
        } catch (error) {
          if (!live) return;
          if (error instanceof QaError && error.status === 404) {
            // Ended over an hour ago, or the server restarted: nothing more to learn.
            keep(latest.current.key, null);
            setLost(messageOf(error));
            return;
          }
          setPollError(error);
          await sleep(JOB_FOLLOW.retryMs);
          continue;
        }
        const early = JOB_FOLLOW.minIntervalMs - (Date.now() - asked);
        if (early > 0) await sleep(early);
      }
    })();
    return () => {
      live = false;
    };
  }, [runningId]);

  const cancelAction = useQaAction((id: string) => qaApi.cancelJob<T>(id), {
    changesData: false,
    quiet: true,
    onDone: (job) => {
      if (job.state !== 'running') endRef.current(job);
    },
  });

  const resetCancel = cancelAction.reset;
  const follow = useCallback(
    (job: QaJob<T>, label: string) => {
      const next = { job, label };
      setFollowed(next);
      setLost(null);
      setPollError(null);
      resetCancel();
      if (job.state === 'running') keep(latest.current.key, next);
      else endRef.current(job);
    },
    [resetCancel],
  );
  const clear = useCallback(() => {
    setFollowed(null);
    setLost(null);
    keep(latest.current.key, null);
  }, []);

  const cancelError =
    cancelAction.error instanceof QaError && cancelAction.error.status === 409 ? null : cancelAction.error;
  return {
    job: followed?.job ?? null,
    label: followed?.label ?? '',
    running: runningId !== null && lost === null,
    lost,
    pollError,
    follow,
    clear,
    cancel: () => {
      if (runningId !== null) cancelAction.mutate(runningId);
    },
    cancelling: cancelAction.isPending,
    cancelError,
  };
}

/** One bar per unit the job reports ("Runs 3 of 7"); a moving bar until it reports any. */
function Meters({ progress }: { progress: QaJob['progress'] }) {
  const units = Object.entries(progress);
  if (units.length === 0)
    return (
      <Progress.Root value={null} size="sm" colorPalette="purple">
        <Progress.Label fontSize="sm" color="fg.muted" mb="1">
          Starting…
        </Progress.Label>
        <Progress.Track aria-label="Starting">
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
    );
  return (
    <Stack gap="2">
      {units.map(([unit, { done, total }]) => (
        <ProgressMeter
          key={unit}
          label={UNIT_LABELS[unit] ?? unit}
          value={done}
          max={total}
          format={(n) => count.format(n)}
          colorPalette="purple"
        />
      ))}
    </Stack>
  );
}

/**
 * A followed job: while it runs, its progress and Cancel; once ended, `result` of what it
 * answered (done; a cancelled job's partial result too), its error, or "Cancelled".
 */
export function JobProgress<T>({
  followed,
  result,
}: {
  followed: FollowedJob<T>;
  result: (value: T, job: QaJob<T>) => ReactNode;
}) {
  const { job, label } = followed;
  if (!job) return null;
  if (job.state === 'done') return <>{job.result === undefined ? null : result(job.result, job)}</>;
  if (job.state === 'failed') return <ErrorNote error={`${label}: ${job.error?.Error ?? 'failed'}`} />;
  return (
    <Box
      borderWidth="1px"
      borderRadius="md"
      p="3"
      bg="bg.muted"
      data-testid="qa-job"
      aria-busy={job.state === 'running'}
    >
      <Stack gap="3">
        <Flex justify="space-between" align="center" gap="2" wrap="wrap">
          <Flex align="center" gap="2" minW="0" wrap="wrap">
            <Text fontSize="sm" fontWeight="semibold">
              {label}
            </Text>
            <Badge colorPalette={STATE_COLORS[job.state]}>{STATE_LABELS[job.state]}</Badge>
          </Flex>
          {job.state === 'running' && followed.lost === null ? (
            <Button
              size="xs"
              variant="outline"
              colorPalette="red"
              loading={followed.cancelling}
              onClick={followed.cancel}
            >
              Cancel
            </Button>
          ) : null}
        </Flex>
        {job.state === 'running' ? <Meters progress={job.progress} /> : null}
        {job.state === 'cancelled' ? (
          <Text fontSize="sm" color="fg.muted">
            {job.kind === 'clock'
              ? 'Stopped after the run in progress: the clock is where its last finished step left it.'
              : 'Stopped: nothing was kept.'}
          </Text>
        ) : null}
        {job.state === 'cancelled' && job.result !== undefined ? result(job.result, job) : null}
        {followed.lost ? (
          <Text fontSize="sm" color="fg.muted">
            {followed.lost}
          </Text>
        ) : null}
        {followed.pollError ? (
          <Text fontSize="xs" color="fg.muted">
            Could not read the job ({messageOf(followed.pollError)}); trying again.
          </Text>
        ) : null}
        {followed.cancelError ? <ErrorNote error={followed.cancelError} /> : null}
        <Text fontSize="xs" color="fg.muted" fontFamily="mono" overflowWrap="anywhere">
          {job.url}
        </Text>
      </Stack>
    </Box>
  );
}
