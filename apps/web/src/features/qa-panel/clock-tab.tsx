/**
 * Clock: the server's now (UTC and London), the next runs, and moves that run what falls due. A
 * move that owes no run answers at once; one that owes runs is a job the tab follows (its
 * progress, Cancel), then shows what ran the same way.
 */
import { useEffect, useState } from 'react';
import { Box, Button, DataList, Flex, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { JobProgress, useFollowedJob } from './job-progress.tsx';
import {
  isQaJob,
  qaApi,
  qaKeys,
  QaError as QaApiError,
  type QaClockJob,
  type QaClockMove,
  type QaNextRun,
} from './qa-api.ts';
import { ErrorNote, SectionHeader, londonTime, runTime, useQaAction, utcTime } from './parts.tsx';

const JOB_LABELS: Record<string, string> = {
  roi: 'ROI (00:05 UK, Mon–Fri)',
  binary: 'Binary matching (11:00 UK)',
  ranks: 'Ranks (after binary)',
};
const jobLabel = (job: string) => JOB_LABELS[job] ?? job;

type Move =
  | { kind: 'advance'; duration: string; label: string }
  | { kind: 'next'; job: 'binary' | 'roi'; label: string };

const MOVES: Move[] = [
  { kind: 'advance', duration: 'PT1H', label: '+1 hour' },
  { kind: 'advance', duration: 'P1D', label: '+1 day' },
  { kind: 'next', job: 'binary', label: 'Next 11:00 UK run' },
  { kind: 'next', job: 'roi', label: 'Next ROI run' },
];

/** The server clock runs at real speed from its offset: tick locally between reads. */
function useTickingNow(serverNow: string | undefined, readAt: number) {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  return serverNow ? Date.parse(serverNow) + (Date.now() - readAt) : undefined;
}

async function move(m: Move): Promise<QaClockMove | QaClockJob> {
  if (m.kind === 'advance') return qaApi.moveClock({ advance: m.duration });
  // Read the next run just before moving, so a run that fell due meanwhile is not set back to.
  const next = (await qaApi.clock()).nextRuns?.find((run) => run.job === m.job);
  if (!next) throw new QaApiError('The server does not say when the next run is due', 0);
  return qaApi.moveClock({ set: next.at });
}

function NextRuns({ runs }: { runs: QaNextRun[] }) {
  return (
    <DataList.Root orientation="horizontal" size="sm" gap="1">
      {runs.map((run) => (
        <DataList.Item key={run.job}>
          <DataList.ItemLabel minW={{ base: '9.5rem', sm: '12rem' }}>{jobLabel(run.job)}</DataList.ItemLabel>
          <DataList.ItemValue>{runTime(run.at)}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}

function LastMove({ result }: { result: { label: string; answer: QaClockMove } }) {
  const { label, answer } = result;
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" bg="bg.muted" data-testid="qa-clock-result">
      <Text fontSize="sm" fontWeight="semibold">
        {label}: now {londonTime(answer.now)}
      </Text>
      {answer.ran.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          Nothing fell due.
        </Text>
      ) : (
        <Stack as="ul" gap="1" mt="1" ps="4" fontSize="sm" aria-label="Runs that ran">
          {answer.ran.map((run) => (
            <li key={`${run.job}-${run.date}`}>
              <Text as="span" fontWeight="medium">
                {run.job} {run.date}
              </Text>
              {run.summary ? <Text as="span" color="fg.muted">{` — ${run.summary}`}</Text> : null}
            </li>
          ))}
        </Stack>
      )}
    </Box>
  );
}

export function ClockTab() {
  const clock = useQuery({ queryKey: qaKeys.clock, queryFn: qaApi.clock });
  const now = useTickingNow(clock.data?.now, clock.dataUpdatedAt);
  const [last, setLast] = useState<{ label: string; answer: QaClockMove } | null>(null);
  // A move that owes runs: followed until they are done (the app is refreshed then too).
  const runs = useFollowedJob<QaClockMove>('clock', { changesData: true });
  const action = useQaAction((m: Move) => move(m), {
    changesData: true,
    onDone: (answer, m) => {
      if (isQaJob(answer)) {
        setLast(null);
        runs.follow(answer, m.label);
      } else {
        runs.clear();
        setLast({ label: m.label, answer });
      }
    },
  });
  const busy = action.isPending || runs.running;

  return (
    <Stack gap="4">
      <SectionHeader
        title="Server clock"
        onRefresh={() => void clock.refetch()}
        refreshing={clock.isFetching}
      />
      {clock.error ? <ErrorNote error={clock.error} /> : null}
      <DataList.Root orientation="horizontal" size="sm" gap="1">
        <DataList.Item>
          <DataList.ItemLabel minW="5rem">London</DataList.ItemLabel>
          <DataList.ItemValue fontFamily="mono" data-testid="qa-clock-london">
            {now === undefined ? '…' : londonTime(now)}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel minW="5rem">UTC</DataList.ItemLabel>
          <DataList.ItemValue fontFamily="mono" data-testid="qa-clock-utc">
            {now === undefined ? '…' : utcTime(now)}
          </DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>

      <Flex gap="2" wrap="wrap" role="group" aria-label="Move the clock">
        {MOVES.map((m) => (
          <Button
            key={m.label}
            size="sm"
            variant="outline"
            colorPalette="purple"
            disabled={busy}
            loading={action.isPending && action.variables === m}
            onClick={() => action.mutate(m)}
          >
            {m.label}
          </Button>
        ))}
      </Flex>
      <Text fontSize="xs" color="fg.muted">
        Moving forward runs every daily run that falls due, in order. Sessions last 24 h of this clock: a day
        ahead signs the member out.
      </Text>

      <Box aria-live="polite">
        {runs.job ? (
          <JobProgress
            followed={runs}
            result={(answer) => <LastMove result={{ label: runs.label, answer }} />}
          />
        ) : last ? (
          <LastMove result={last} />
        ) : null}
      </Box>

      {clock.data?.nextRuns?.length ? (
        <Stack gap="2">
          <Text fontSize="sm" fontWeight="semibold">
            Next runs
          </Text>
          <NextRuns runs={clock.data.nextRuns} />
        </Stack>
      ) : null}
    </Stack>
  );
}
