/**
 * Worlds: which isolated world this tab is in, the live worlds, a new one from a scenario or a
 * snapshot, entering, leaving and deleting. Entering and leaving are navigations (the server sets
 * or clears the qa_world cookie and sends the tab to /): the app starts again inside the world,
 * signed out, since a session belongs to the world that made it.
 */
import { useState, type FormEvent } from 'react';
import { Badge, Button, Field, Flex, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { qaApi, qaKeys, type QaWorld } from './qa-api.ts';
import { EmptyNote, ErrorNote, Item, ItemList, SectionHeader, shortTime, useQaAction } from './parts.tsx';

const DEFAULT_TTL_MINUTES = 120;
/** Leaves the page for the server's door (an object, so a test can watch where the tab goes). */
export const worldDoor = { go: (url: string) => window.location.assign(url) };
const go = (url: string) => worldDoor.go(url);

/** The world this tab is in, with its expiry. */
function useCurrentWorld() {
  return useQuery({ queryKey: qaKeys.currentWorld, queryFn: qaApi.currentWorld });
}

function Current() {
  const current = useCurrentWorld();
  const world = current.data?.world;
  return (
    <Stack gap="2">
      <SectionHeader
        title="This tab"
        onRefresh={() => void current.refetch()}
        refreshing={current.isFetching}
      />
      {current.error ? <ErrorNote error={current.error} /> : null}
      {current.isPending ? null : (
        <ItemList label="This tab's world">
          <Item testId="qa-world-current">
            <Flex justify="space-between" align="center" gap="2" wrap="wrap">
              <Stack gap="0" minW="0">
                {world ? (
                  <>
                    <Text fontFamily="mono" fontWeight="semibold" overflowWrap="anywhere">
                      {world.id}
                    </Text>
                    <Text fontSize="xs" color="fg.muted">
                      from {world.from} · expires {shortTime(world.expiresAt)} if idle
                    </Text>
                  </>
                ) : current.data?.named ? (
                  <Text fontSize="sm" color="fg.error">
                    World {current.data.named} has expired or was deleted
                  </Text>
                ) : (
                  <Text fontSize="sm">The default world (shared by everyone not in a world)</Text>
                )}
              </Stack>
              {current.data?.named ? (
                <Button size="xs" variant="outline" onClick={() => go(qaApi.leaveWorldUrl)}>
                  Leave
                </Button>
              ) : null}
            </Flex>
          </Item>
        </ItemList>
      )}
    </Stack>
  );
}

function NewWorld() {
  const scenarios = useQuery({ queryKey: qaKeys.scenarios, queryFn: qaApi.scenarios, staleTime: Infinity });
  const snapshots = useQuery({ queryKey: qaKeys.snapshots, queryFn: qaApi.snapshots });
  const [from, setFrom] = useState('demo');
  const [ttl, setTtl] = useState(String(DEFAULT_TTL_MINUTES));
  const ttlValid = /^\d+$/.test(ttl) && Number(ttl) >= 1 && Number(ttl) <= 10_080;
  const [showInvalid, setShowInvalid] = useState(false);
  const create = useQaAction((body: { from: string; ttlMinutes: number }) => qaApi.createWorld(body), {
    changesData: false,
    onDone: (world) => go(world.enter),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShowInvalid(!ttlValid);
    if (ttlValid) create.mutate({ from, ttlMinutes: Number(ttl) });
  };
  return (
    <Stack gap="2">
      <SectionHeader title="New world" />
      <form onSubmit={submit} noValidate aria-label="Make a world">
        <Flex gap="2" align="flex-end" wrap="wrap">
          <Field.Root flex="2" minW="10rem">
            <Field.Label>From</Field.Label>
            <NativeSelect.Root size="sm">
              <NativeSelect.Field value={from} onChange={(e) => setFrom(e.target.value)}>
                {(scenarios.data ?? [{ name: 'demo' }]).map((s) => (
                  <option key={s.name} value={s.name}>
                    {s.name}
                  </option>
                ))}
                {(snapshots.data ?? []).map((s) => (
                  <option key={s.name} value={`snapshot:${s.name}`}>
                    snapshot {s.name}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          <Field.Root invalid={showInvalid && !ttlValid} flex="1" minW="6rem">
            <Field.Label>Idle minutes</Field.Label>
            <Input size="sm" inputMode="numeric" value={ttl} onChange={(e) => setTtl(e.target.value)} />
            <Field.ErrorText>1 to 10,080</Field.ErrorText>
          </Field.Root>
          <Button type="submit" size="sm" colorPalette="purple" loading={create.isPending}>
            Create and enter
          </Button>
        </Flex>
      </form>
      <Text fontSize="xs" color="fg.muted">
        A world is a whole stand-in of its own: database, clock, mailbox, faults and limits. Entering one
        signs this tab out (a session belongs to its world).
      </Text>
    </Stack>
  );
}

function WorldList() {
  const worlds = useQuery({ queryKey: qaKeys.worlds, queryFn: qaApi.worlds });
  const current = useCurrentWorld();
  const remove = useQaAction((id: string) => qaApi.deleteWorld(id), {
    changesData: false,
    success: (_r, id) => `World ${id} deleted`,
  });
  const here = current.data?.world?.id;
  return (
    <Stack gap="2">
      <SectionHeader
        title={
          worlds.data ? `Live worlds (${worlds.data.worlds.length} of ${worlds.data.max})` : 'Live worlds'
        }
        onRefresh={() => void worlds.refetch()}
        refreshing={worlds.isFetching}
      />
      {worlds.error ? <ErrorNote error={worlds.error} /> : null}
      {worlds.isPending ? null : !worlds.data?.worlds.length ? (
        <EmptyNote>No worlds yet.</EmptyNote>
      ) : (
        <ItemList label="Live worlds">
          {worlds.data.worlds.map((w: QaWorld) => (
            <Item key={w.id} testId={`qa-world-${w.id}`}>
              <Flex justify="space-between" align="center" gap="2" wrap="wrap">
                <Stack gap="0" minW="0">
                  <HStack gap="2">
                    <Text fontFamily="mono" fontWeight="semibold" overflowWrap="anywhere">
                      {w.id}
                    </Text>
                    {w.id === here ? <Badge colorPalette="purple">here</Badge> : null}
                  </HStack>
                  <Text fontSize="xs" color="fg.muted">
                    from {w.from} · made {shortTime(w.createdAt)} · expires {shortTime(w.expiresAt)}
                  </Text>
                </Stack>
                <HStack gap="2">
                  {w.id === here ? null : (
                    <Button
                      size="xs"
                      variant="outline"
                      aria-label={`Enter ${w.id}`}
                      onClick={() => go(qaApi.enterWorldUrl(w.id))}
                    >
                      Enter
                    </Button>
                  )}
                  <Button
                    size="xs"
                    variant="ghost"
                    colorPalette="red"
                    aria-label={`Delete ${w.id}`}
                    loading={remove.isPending && remove.variables === w.id}
                    onClick={() => remove.mutate(w.id)}
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

export function WorldsTab() {
  return (
    <Stack gap="6">
      <Current />
      <NewWorld />
      <WorldList />
    </Stack>
  );
}
