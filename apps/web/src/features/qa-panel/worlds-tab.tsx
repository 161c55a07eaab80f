/**
 * Worlds: which isolated world this tab is in, the live worlds (who made them, how often they were
 * entered, whether something works in them), the latest lifecycle events, a new one from a
 * scenario, a snapshot or a pasted declared state (a build: a job whose progress the tab follows),
 * entering, leaving and deleting; a world exported as one file, and a file imported as a world
 * (from this server or another: docs/worlds.md, Worlds travel). What curl can do, the panel does:
 * a name and a client mode for a new world, a declared state pasted or loaded from a file, a link
 * that enters a world to hand a colleague, and the 2FA member's code by the world's clock.
 * Entering and leaving are navigations through the server's doors, which name the world to the tab
 * (lib/world.ts): the app starts again inside it, signed out (a session belongs to its world, and
 * a world's sign-in keeps its own), and every other tab stays in its own world.
 */
import { useState, type FormEvent } from 'react';
import {
  Badge,
  Box,
  Button,
  Field,
  Flex,
  HStack,
  Input,
  NativeSelect,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { downloadBlob } from '@/lib/download.ts';
import { JobProgress, useFollowedJob } from './job-progress.tsx';
import {
  isQaJob,
  qaApi,
  qaKeys,
  type QaImportedWorld,
  type QaNewWorld,
  type QaWorld,
  type QaWorldEvent,
  type QaWorldRequest,
} from './qa-api.ts';
import {
  EmptyNote,
  ErrorNote,
  Item,
  ItemList,
  SectionHeader,
  messageOf,
  shortTime,
  useQaAction,
} from './parts.tsx';

const DEFAULT_TTL_MINUTES = 120;
/** Leaves the page for the server's door (an object, so a test can watch where the tab goes). */
export const worldDoor = { go: (url: string) => window.location.assign(url) };
const go = (url: string) => worldDoor.go(url);

/** The world this tab is in, with its expiry. */
function useCurrentWorld() {
  return useQuery({ queryKey: qaKeys.currentWorld, queryFn: qaApi.currentWorld });
}

/**
 * The codes the 2FA members' authenticators show now by this world's clock (demo2fa in the demo,
 * a declared state's own): a phone's own code is refused in a world whose clock was moved (or was
 * declared at another date).
 */
function TwoFactorCodes() {
  const totps = useQuery({
    queryKey: [...qaKeys.currentWorld, 'totp'],
    queryFn: qaApi.totps,
    retry: false,
    // A new code every 30 s: read again when the first runs out (never again for a world without 2FA members).
    refetchInterval: (query) => {
      const codes = query.state.data;
      if (query.state.status === 'error' || codes?.length === 0) return false;
      return (Math.min(...(codes ?? []).map((c) => c.expiresInSeconds), 30) + 1) * 1000;
    },
  });
  if (!totps.data?.length) return null;
  return (
    <Stack gap="0.5" data-testid="qa-world-totp">
      {totps.data.map((totp) => (
        <Text key={totp.username} fontSize="xs" color="fg.muted">
          {totp.username}'s 2FA code by this world's clock:{' '}
          <Text as="span" fontFamily="mono" fontWeight="semibold" color="fg">
            {totp.code}
          </Text>{' '}
          ({totp.expiresInSeconds} s left)
        </Text>
      ))}
    </Stack>
  );
}

/** Saves a world (`default`: the default world) as a file a server imports. */
function useExportWorld() {
  return useQaAction(async (id: string) => downloadBlob(await qaApi.exportWorld(id), `${id}.world.sqlite`), {
    changesData: false,
    success: (_r, id) => `World ${id} saved as ${id}.world.sqlite`,
  });
}

function Current() {
  const current = useCurrentWorld();
  const exportWorld = useExportWorld();
  const world = current.data?.world;
  const exported = world?.id ?? (current.data?.named ? null : 'default');
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
                    {world.name ? <Text fontWeight="semibold">{world.name}</Text> : null}
                    <Text
                      fontFamily="mono"
                      fontWeight={world.name ? 'normal' : 'semibold'}
                      fontSize={world.name ? 'xs' : undefined}
                      overflowWrap="anywhere"
                    >
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
                <TwoFactorCodes />
              </Stack>
              <HStack gap="2">
                {exported ? (
                  <Button
                    size="xs"
                    variant="ghost"
                    aria-label={`Export ${exported}`}
                    loading={exportWorld.isPending}
                    onClick={() => exportWorld.mutate(exported)}
                  >
                    Export
                  </Button>
                ) : null}
                {current.data?.named ? (
                  <Button size="xs" variant="outline" onClick={() => go(qaApi.leaveWorldUrl)}>
                    Leave
                  </Button>
                ) : null}
              </HStack>
            </Flex>
          </Item>
        </ItemList>
      )}
    </Stack>
  );
}

/** The From choice that shows the declared state's text box (no scenario or snapshot is spelled so). */
const FROM_STATE = ':state';
const STATE_PLACEHOLDER = `{
  "date": "2026-03-04T12:00:00Z",
  "members": [{ "username": "ann", "packages": [{ "plan": "Gold" }] }]
}`;

/** A chosen file's text (FileReader: what every browser, and the tests' DOM, has). */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });
}

/** The pasted declared state: the object to send, or why it is not one. */
function parseState(text: string): { state: object } | { error: string } {
  if (!text.trim()) return { error: 'Paste a declared state (JSON)' };
  try {
    const state: unknown = JSON.parse(text);
    if (typeof state !== 'object' || state === null || Array.isArray(state))
      return { error: 'A declared state is a JSON object' };
    return { state };
  } catch (error) {
    return { error: `Not JSON: ${messageOf(error)}` };
  }
}

/**
 * A world a build or an import made: entering it is QA's choice (the build may have ended while QA
 * looked elsewhere). `notCarried`: what an imported file had that this server could not give it.
 */
function BuiltWorld({ world, notCarried = [] }: { world: QaNewWorld; notCarried?: string[] }) {
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" bg="bg.muted" data-testid="qa-world-built">
      <Flex justify="space-between" align="center" gap="2" wrap="wrap">
        <Stack gap="0" minW="0">
          <Text fontSize="sm" fontWeight="semibold">
            World ready
          </Text>
          <Text fontFamily="mono" fontSize="sm" overflowWrap="anywhere">
            {world.id}
          </Text>
          <Text fontSize="xs" color="fg.muted">
            from {world.from} · expires {shortTime(world.expiresAt)} if idle
          </Text>
        </Stack>
        <Button size="xs" colorPalette="purple" onClick={() => go(world.enter)}>
          Enter the new world
        </Button>
      </Flex>
      {notCarried.length > 0 ? (
        <Stack as="ul" gap="0" mt="2" ps="4" fontSize="xs" aria-label="Not carried">
          {notCarried.map((note) => (
            <li key={note}>Not carried: {note}</li>
          ))}
        </Stack>
      ) : null}
    </Box>
  );
}

/** A world file (an export, from this server or another) made a world of this server. */
function ImportWorld() {
  const [file, setFile] = useState<File | null>(null);
  const [showMissing, setShowMissing] = useState(false);
  const [imported, setImported] = useState<QaImportedWorld | null>(null);
  const importWorld = useQaAction((chosen: File) => qaApi.importWorld(chosen, DEFAULT_TTL_MINUTES), {
    changesData: false,
    // A refused file is explained under the form, not in a toast.
    quiet: true,
    onDone: setImported,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShowMissing(file === null);
    if (file) importWorld.mutate(file);
  };
  return (
    <Stack gap="2">
      <SectionHeader title="Import a world" />
      <form onSubmit={submit} noValidate aria-label="Import a world">
        <Flex gap="2" align="flex-end" wrap="wrap">
          <Field.Root invalid={showMissing && file === null} flex="1" minW="12rem">
            <Field.Label>World file</Field.Label>
            <Input
              type="file"
              size="sm"
              p="1"
              accept=".sqlite,application/vnd.sqlite3,application/octet-stream"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setImported(null);
              }}
            />
            <Field.ErrorText>Choose a file exported from a world</Field.ErrorText>
          </Field.Root>
          <Button type="submit" size="sm" colorPalette="purple" loading={importWorld.isPending}>
            Import
          </Button>
        </Flex>
      </form>
      {importWorld.error ? <ErrorNote error={importWorld.error} /> : null}
      <Box aria-live="polite">
        {imported ? <BuiltWorld world={imported} notCarried={imported.notCarried} /> : null}
      </Box>
      <Text fontSize="xs" color="fg.muted">
        Export a world (its rows, clock, mailbox, faults and routing) from any server and import it here as a
        new world; its members sign in again.
      </Text>
    </Stack>
  );
}

function NewWorld() {
  const scenarios = useQuery({ queryKey: qaKeys.scenarios, queryFn: qaApi.scenarios, staleTime: Infinity });
  const snapshots = useQuery({ queryKey: qaKeys.snapshots, queryFn: qaApi.snapshots });
  const [from, setFrom] = useState('demo');
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'' | 'mock' | 'provider'>('');
  const [ttl, setTtl] = useState(String(DEFAULT_TTL_MINUTES));
  const [stateText, setStateText] = useState('');
  const ttlValid = /^\d+$/.test(ttl) && Number(ttl) >= 1 && Number(ttl) <= 10_080;
  const [showInvalid, setShowInvalid] = useState(false);
  const fromState = from === FROM_STATE;
  const parsed = parseState(stateText);
  // A declared state is built as a job (202); a server that answers the world at once (201) is shown the same.
  const build = useFollowedJob<QaNewWorld>('world', { changesData: false });
  const create = useQaAction((body: QaWorldRequest) => qaApi.createWorld(body), {
    changesData: false,
    onDone: (answer) => (isQaJob(answer) ? build.follow(answer, 'Building a world') : go(answer.enter)),
  });
  const [built, setBuilt] = useState<QaNewWorld | null>(null);
  const submitState = useQaAction((body: QaWorldRequest) => qaApi.createWorld(body), {
    changesData: false,
    // The server's faults name each path of the document: shown under it, not in a toast.
    quiet: true,
    onDone: (answer) => {
      if (isQaJob(answer)) {
        setBuilt(null);
        build.follow(answer, 'Building a world');
      } else {
        build.clear();
        setBuilt(answer);
      }
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const stateOk = !fromState || 'state' in parsed;
    setShowInvalid(!ttlValid || !stateOk);
    if (!ttlValid || !stateOk) return;
    const named = {
      ttlMinutes: Number(ttl),
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(mode ? { clientMode: mode } : {}),
    };
    if ('state' in parsed && fromState) submitState.mutate({ state: parsed.state, ...named });
    else if (!fromState) create.mutate({ from, ...named });
  };
  const submitButton = (
    <Button
      type="submit"
      size="sm"
      colorPalette="purple"
      loading={fromState ? submitState.isPending : create.isPending}
      disabled={fromState && build.running}
    >
      {fromState ? 'Build' : 'Create and enter'}
    </Button>
  );
  return (
    <Stack gap="2">
      <SectionHeader title="New world" />
      <form onSubmit={submit} noValidate aria-label="Make a world">
        <Stack gap="2">
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
                  <option value={FROM_STATE}>a declared state (JSON)…</option>
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
            <Field.Root invalid={showInvalid && !ttlValid} flex="1" minW="6rem">
              <Field.Label>Idle minutes</Field.Label>
              <Input size="sm" inputMode="numeric" value={ttl} onChange={(e) => setTtl(e.target.value)} />
              <Field.ErrorText>1 to 10,080</Field.ErrorText>
            </Field.Root>
          </Flex>
          <Flex gap="2" align="flex-end" wrap="wrap">
            <Field.Root flex="2" minW="10rem">
              <Field.Label>Name (optional)</Field.Label>
              <Input size="sm" maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
            </Field.Root>
            <Field.Root flex="1" minW="8rem">
              <Field.Label>Client mode</Field.Label>
              <NativeSelect.Root size="sm">
                <NativeSelect.Field
                  value={mode}
                  onChange={(e) => setMode(e.target.value as '' | 'mock' | 'provider')}
                >
                  <option value="">the server's</option>
                  <option value="mock">mock (tRPC)</option>
                  <option value="provider">provider (REST)</option>
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
            {fromState ? null : submitButton}
          </Flex>
          {fromState ? (
            <>
              <Field.Root invalid={showInvalid && 'error' in parsed}>
                <Field.Label>Declared state (JSON)</Field.Label>
                <Textarea
                  size="sm"
                  rows={8}
                  resize="vertical"
                  fontFamily="mono"
                  fontSize="xs"
                  spellCheck={false}
                  placeholder={STATE_PLACEHOLDER}
                  value={stateText}
                  onChange={(e) => setStateText(e.target.value)}
                />
                <Field.ErrorText>{'error' in parsed ? parsed.error : null}</Field.ErrorText>
                <Field.HelperText>
                  Schema: packages/shared/world-state.schema.json; examples in world-states/. Built on an
                  empty world through the domain functions.
                </Field.HelperText>
              </Field.Root>
              <Field.Root>
                <Field.Label>Or load it from a file</Field.Label>
                <Input
                  type="file"
                  size="sm"
                  p="1"
                  accept=".json,application/json"
                  onChange={(e) => {
                    const chosen = e.target.files?.[0];
                    if (chosen) void readText(chosen).then(setStateText);
                  }}
                />
              </Field.Root>
              <Flex justify="flex-end">{submitButton}</Flex>
            </>
          ) : null}
        </Stack>
      </form>
      {fromState && submitState.error ? <ErrorNote error={submitState.error} /> : null}
      <Box aria-live="polite">
        {build.job ? (
          <JobProgress followed={build} result={(world) => <BuiltWorld world={world} />} />
        ) : built ? (
          <BuiltWorld world={built} />
        ) : null}
      </Box>
      <Text fontSize="xs" color="fg.muted">
        A world is a whole stand-in of its own: database, clock, mailbox, faults and limits. Entering or
        leaving moves this tab alone, and its sign-in is the world's own.
      </Text>
    </Stack>
  );
}

const EVENT_LABELS: Record<QaWorldEvent['event'], string> = {
  created: 'made',
  entered: 'entered',
  expired: 'expired',
  deleted: 'deleted',
};

/** The latest lifecycle events of every world, newest first. */
function WorldHistory({ events }: { events: QaWorldEvent[] }) {
  const latest = events.slice(-10).reverse();
  return (
    <Stack gap="1">
      <Text fontSize="sm" fontWeight="semibold">
        Recent events
      </Text>
      {latest.length === 0 ? (
        <EmptyNote>Nothing yet.</EmptyNote>
      ) : (
        <Stack as="ol" gap="1" m="0" p="0" fontSize="xs" aria-label="Recent world events">
          {latest.map((e, i) => (
            <Box
              as="li"
              key={`${e.at}-${e.world}-${e.event}-${i}`}
              listStyleType="none"
              overflowWrap="anywhere"
            >
              <Text as="span" color="fg.muted">
                {shortTime(e.at)}
              </Text>{' '}
              <Text as="span" fontFamily="mono">
                {e.world}
              </Text>{' '}
              {EVENT_LABELS[e.event] ?? e.event}
              {e.from ? ` from ${e.from}` : ''}
              {e.client ? ` by ${e.client}` : ''}
            </Box>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The link that enters a world from any tab of this server (pasted or typed: the door lets it in). */
export const worldLink = (id: string) => new URL(qaApi.enterWorldUrl(id), window.location.origin).href;

async function copyText(text: string) {
  if (!navigator.clipboard) throw new Error(`Copy it by hand: ${text}`);
  await navigator.clipboard.writeText(text);
}

function WorldList() {
  const worlds = useQuery({ queryKey: qaKeys.worlds, queryFn: qaApi.worlds });
  const current = useCurrentWorld();
  const remove = useQaAction((id: string) => qaApi.deleteWorld(id), {
    changesData: false,
    success: (_r, id) => `World ${id} deleted`,
  });
  const exportWorld = useExportWorld();
  const copyLink = useQaAction((id: string) => copyText(worldLink(id)), {
    changesData: false,
    success: (_r, id) => `Link to ${id} copied: whoever opens it enters the world`,
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
                  {w.name ? <Text fontWeight="semibold">{w.name}</Text> : null}
                  <HStack gap="2" wrap="wrap">
                    <Text
                      fontFamily="mono"
                      fontWeight={w.name ? 'normal' : 'semibold'}
                      fontSize={w.name ? 'xs' : undefined}
                      overflowWrap="anywhere"
                    >
                      {w.id}
                    </Text>
                    {w.id === here ? <Badge colorPalette="purple">here</Badge> : null}
                    {w.busy ? (
                      <Badge colorPalette="orange" title="Calls or jobs working in it now">
                        busy
                      </Badge>
                    ) : null}
                  </HStack>
                  <Text fontSize="xs" color="fg.muted">
                    from {w.from} · made {shortTime(w.createdAt)} · expires {shortTime(w.expiresAt)}
                  </Text>
                  {w.createdBy !== undefined || w.entered !== undefined ? (
                    <Text fontSize="xs" color="fg.muted" overflowWrap="anywhere">
                      {[
                        w.createdBy !== undefined ? `by ${w.createdBy}` : null,
                        w.entered !== undefined ? `entered ${w.entered}×` : null,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </Text>
                  ) : null}
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
                    aria-label={`Copy link to ${w.id}`}
                    onClick={() => copyLink.mutate(w.id)}
                  >
                    Copy link
                  </Button>
                  <Button
                    size="xs"
                    variant="ghost"
                    aria-label={`Export ${w.id}`}
                    loading={exportWorld.isPending && exportWorld.variables === w.id}
                    onClick={() => exportWorld.mutate(w.id)}
                  >
                    Export
                  </Button>
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
      {worlds.data?.history ? <WorldHistory events={worlds.data.history} /> : null}
    </Stack>
  );
}

export function WorldsTab() {
  return (
    <Stack gap="6">
      <Current />
      <NewWorld />
      <ImportWorld />
      <WorldList />
    </Stack>
  );
}
