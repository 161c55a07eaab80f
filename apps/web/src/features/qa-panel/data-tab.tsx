/** Data: reset to a scenario, snapshots (save, restore, delete) and the ledger check. */
import { useState, type FormEvent } from 'react';
import { Badge, Button, Field, Flex, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '@/components/form/confirm-dialog.tsx';
import { qaApi, qaKeys, type QaLedgerCheck } from './qa-api.ts';
import { EmptyNote, ErrorNote, Item, ItemList, SectionHeader, shortTime, useQaAction } from './parts.tsx';

const SNAPSHOT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

type Pending = { kind: 'reset'; name: string } | { kind: 'restore'; name: string };

function Scenarios({ onAsk }: { onAsk: (p: Pending) => void }) {
  const scenarios = useQuery({ queryKey: qaKeys.scenarios, queryFn: qaApi.scenarios, staleTime: Infinity });
  return (
    <Stack gap="2">
      <SectionHeader title="Scenarios" />
      {scenarios.error ? <ErrorNote error={scenarios.error} /> : null}
      {scenarios.isPending ? (
        <EmptyNote>Loading...</EmptyNote>
      ) : (
        <ItemList label="Scenarios">
          {(scenarios.data ?? []).map((s) => (
            <Item key={s.name}>
              <Flex justify="space-between" align="center" gap="2">
                <Text fontWeight="semibold" fontFamily="mono">
                  {s.name}
                </Text>
                <Button
                  size="xs"
                  variant="outline"
                  colorPalette="red"
                  onClick={() => onAsk({ kind: 'reset', name: s.name })}
                >
                  Reset to {s.name}
                </Button>
              </Flex>
              <Text fontSize="xs" color="fg.muted">
                {s.description}
              </Text>
            </Item>
          ))}
        </ItemList>
      )}
    </Stack>
  );
}

function Snapshots({ onAsk }: { onAsk: (p: Pending) => void }) {
  const snapshots = useQuery({ queryKey: qaKeys.snapshots, queryFn: qaApi.snapshots });
  const [name, setName] = useState('');
  const [invalid, setInvalid] = useState(false);
  const save = useQaAction((n: string) => qaApi.saveSnapshot(n), {
    changesData: false,
    success: (s) => `Snapshot '${s.name}' saved`,
    onDone: () => setName(''),
  });
  const remove = useQaAction((n: string) => qaApi.deleteSnapshot(n), {
    changesData: false,
    success: (_r, n) => `Snapshot '${n}' deleted`,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    setInvalid(!SNAPSHOT_NAME.test(trimmed));
    if (SNAPSHOT_NAME.test(trimmed)) save.mutate(trimmed);
  };
  return (
    <Stack gap="2">
      <SectionHeader
        title="Snapshots"
        onRefresh={() => void snapshots.refetch()}
        refreshing={snapshots.isFetching}
      />
      <form onSubmit={submit} noValidate aria-label="Save a snapshot">
        <Flex gap="2" align="flex-end">
          <Field.Root invalid={invalid} flex="1">
            <Field.Label>Snapshot name</Field.Label>
            <Input
              size="sm"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="before-withdrawal"
              autoCapitalize="none"
            />
            <Field.ErrorText>Letters, digits, '-' or '_' (up to 64)</Field.ErrorText>
          </Field.Root>
          <Button
            type="submit"
            size="sm"
            colorPalette="purple"
            loading={save.isPending}
            mb={invalid ? '6' : '0'}
          >
            Save
          </Button>
        </Flex>
      </form>
      {snapshots.error ? <ErrorNote error={snapshots.error} /> : null}
      {snapshots.isPending ? null : !snapshots.data?.length ? (
        <EmptyNote>No snapshots yet.</EmptyNote>
      ) : (
        <ItemList label="Snapshots">
          {snapshots.data.map((s) => (
            <Item key={s.name} testId={`qa-snapshot-${s.name}`}>
              <Flex justify="space-between" align="center" gap="2" wrap="wrap">
                <Stack gap="0" minW="0">
                  <Text fontFamily="mono" fontWeight="semibold" overflowWrap="anywhere">
                    {s.name}
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    {shortTime(s.createdAt)} ·{' '}
                    {Math.max(1, Math.round(s.size / 1024)).toLocaleString('en-US')} KB
                  </Text>
                </Stack>
                <HStack gap="2">
                  <Button
                    size="xs"
                    variant="outline"
                    aria-label={`Restore ${s.name}`}
                    onClick={() => onAsk({ kind: 'restore', name: s.name })}
                  >
                    Restore
                  </Button>
                  <Button
                    size="xs"
                    variant="ghost"
                    colorPalette="red"
                    aria-label={`Delete ${s.name}`}
                    loading={remove.isPending && remove.variables === s.name}
                    onClick={() => remove.mutate(s.name)}
                  >
                    Delete
                  </Button>
                </HStack>
              </Flex>
            </Item>
          ))}
        </ItemList>
      )}
    </Stack>
  );
}

function LedgerResult({ check }: { check: QaLedgerCheck }) {
  const ok = check.balanced && check.negativeWallets.length === 0 && check.mismatchedWallets.length === 0;
  const problems = [
    ...check.negativeWallets.map((p) => ({ ...p, kind: 'negative' })),
    ...check.mismatchedWallets.map((p) => ({ ...p, kind: 'mismatched' })),
  ];
  return (
    <Stack gap="1" data-testid="qa-ledger-result" role="status">
      <HStack gap="2" wrap="wrap">
        <Badge colorPalette={ok ? 'green' : 'red'}>{ok ? 'Ledger OK' : 'Ledger problems'}</Badge>
        <Text fontSize="sm">
          {check.balanced ? 'Balanced' : `Not balanced (total ${check.total})`} ·{' '}
          {check.negativeWallets.length} negative wallet{check.negativeWallets.length === 1 ? '' : 's'} ·{' '}
          {check.mismatchedWallets.length} mismatched wallet{check.mismatchedWallets.length === 1 ? '' : 's'}
        </Text>
      </HStack>
      {problems.slice(0, 10).map((p) => (
        <Text key={`${p.kind}-${p.accountId}`} fontSize="xs" color="fg.error" fontFamily="mono">
          {p.kind}: account {p.accountId} {p.username ?? 'system'} {p.wallet ?? ''} balance {p.balance}{' '}
          (transfers say {p.fromTransfers})
        </Text>
      ))}
    </Stack>
  );
}

function LedgerCheck() {
  // A check reads; it changes nothing worth refreshing the app for.
  const check = useMutation({ mutationFn: qaApi.ledgerCheck });
  return (
    <Stack gap="2">
      <SectionHeader title="Ledger">
        <Button size="xs" variant="outline" onClick={() => check.mutate()} loading={check.isPending}>
          Check ledger
        </Button>
      </SectionHeader>
      {check.error ? <ErrorNote error={check.error} /> : null}
      {check.data ? (
        <LedgerResult check={check.data} />
      ) : (
        <EmptyNote>
          The sum of all balances, negative wallets, and wallets that disagree with their transfers.
        </EmptyNote>
      )}
    </Stack>
  );
}

export function DataTab() {
  const [asking, setAsking] = useState<Pending | null>(null);
  const run = useQaAction(
    async (p: Pending): Promise<{ scenario: string; members: number } | { restored: unknown }> =>
      p.kind === 'reset' ? qaApi.reset(p.name) : qaApi.restoreSnapshot(p.name),
    {
      changesData: true,
      success: (result, p) =>
        'members' in result
          ? `Reset to '${result.scenario}': ${result.members.toLocaleString('en-US')} members`
          : `Snapshot '${p.name}' restored`,
      onDone: () => setAsking(null),
    },
  );
  return (
    <Stack gap="6">
      <Scenarios onAsk={setAsking} />
      <Snapshots onAsk={setAsking} />
      <LedgerCheck />
      <ConfirmDialog
        open={asking !== null}
        title={
          asking?.kind === 'restore'
            ? `Restore snapshot '${asking.name}'?`
            : `Reset to '${asking?.name ?? ''}'?`
        }
        confirmLabel={asking?.kind === 'restore' ? 'Restore' : 'Reset'}
        busy={run.isPending}
        busyLabel={asking?.kind === 'restore' ? 'Restoring...' : 'Resetting...'}
        onCancel={() => setAsking(null)}
        onConfirm={() => asking && run.mutate(asking)}
      >
        <Text>
          {asking?.kind === 'restore'
            ? 'The whole database goes back to the snapshot, and the clock with it. Every change since it was saved is lost.'
            : 'The whole database is rebuilt from the scenario and the clock goes back to real time. Every change is lost; a member whose account changed is signed out.'}
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}
