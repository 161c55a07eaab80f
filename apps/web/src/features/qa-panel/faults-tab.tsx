/** Faults: the active fault and latency rules, quick toggles for common ones, and a small rule form. */
import { useId, useState, type FormEvent } from 'react';
import {
  Badge,
  Button,
  Field,
  Flex,
  Input,
  NativeSelect,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { contract, procedureNames } from '@md/shared';
import { qaApi, qaKeys, type QaFaultInput, type QaFaultRule } from './qa-api.ts';
import { EmptyNote, ErrorNote, Item, ItemList, SectionHeader, useQaAction } from './parts.tsx';

export interface QuickFault {
  label: string;
  rule: QaFaultInput;
}

/** The faults QA reaches for most: a failing profile, a wallet call that never answers, slowness. */
export const QUICK_FAULTS: QuickFault[] = [
  { label: '500 on /user/view_profile', rule: { path: '/user/view_profile', status: 500 } },
  {
    label: 'Hang on /wallet/view_all_wallets_details',
    rule: { path: '/wallet/view_all_wallets_details', hang: true },
  },
  {
    label: 'Malformed JSON from /notification/view_notification',
    rule: { path: '/notification/view_notification', malformed: true },
  },
  { label: '503 on /user/login', rule: { path: '/user/login', status: 503 } },
  { label: '2 s delay on every call', rule: { path: '*', delayMs: 2000 } },
];

const EFFECT_KEYS = [
  'path',
  'member',
  'status',
  'error',
  'body',
  'delayMs',
  'delay',
  'hang',
  'malformed',
  'empty',
  'drop',
] as const;

/** What a rule does, as a comparable string: a toggle is on when a lasting rule with its effect exists. */
const signature = (rule: QaFaultInput) =>
  JSON.stringify(
    EFFECT_KEYS.map((key) => (rule[key] === undefined || rule[key] === false ? null : rule[key])),
  );
const lasting = (rule: QaFaultRule) => rule.times === undefined && rule.probability >= 1;
export const rulesOf = (quick: QuickFault, rules: QaFaultRule[]) =>
  rules.filter((r) => lasting(r) && signature(r) === signature(quick.rule));

/** "500 Internal error · +2000 ms · for demo · 2 more times · hit 3×" */
export function describeRule(rule: QaFaultRule): string {
  const parts: string[] = [];
  if (rule.hang) parts.push('hang (never answers)');
  if (rule.drop) parts.push('drop the connection');
  if (rule.malformed) parts.push(`malformed JSON${rule.status ? ` (${rule.status})` : ''}`);
  if (rule.empty) parts.push(`empty body${rule.status ? ` (${rule.status})` : ''}`);
  if (rule.body !== undefined) parts.push(`${rule.status ?? 200} ${JSON.stringify(rule.body).slice(0, 60)}`);
  if (
    !rule.malformed &&
    !rule.empty &&
    rule.body === undefined &&
    (rule.status !== undefined || rule.error !== undefined)
  )
    parts.push(`${rule.status ?? 500}${rule.error ? ` “${rule.error}”` : ''}`);
  if (rule.delayMs !== undefined) parts.push(`+${rule.delayMs} ms`);
  if (rule.delay) parts.push(`+${rule.delay.min}–${rule.delay.max} ms`);
  if (rule.member) parts.push(`for ${rule.member}`);
  if (rule.probability < 1) parts.push(`${Math.round(rule.probability * 100)} % of calls`);
  if (rule.remaining !== undefined)
    parts.push(`${rule.remaining} more time${rule.remaining === 1 ? '' : 's'}`);
  parts.push(`hit ${rule.applied}×`);
  return parts.join(' · ');
}

const PATHS = ['*', ...procedureNames.map((name) => contract[name].path)].sort();
const SPECIAL = [
  { value: '', label: 'None (status / error)' },
  { value: 'hang', label: 'Hang (never answer)' },
  { value: 'drop', label: 'Drop the connection' },
  { value: 'malformed', label: 'Malformed JSON' },
  { value: 'empty', label: 'Empty body' },
] as const;
type Special = (typeof SPECIAL)[number]['value'];

interface FormValues {
  path: string;
  status: string;
  error: string;
  delayMs: string;
  times: string;
  special: Special;
}
const EMPTY_FORM: FormValues = { path: '', status: '', error: '', delayMs: '', times: '', special: '' };

/** The form's fields as a rule; the server checks coherence and answers the reason when it is not. */
export function ruleFromForm(values: FormValues): QaFaultInput {
  const rule: QaFaultInput = { path: values.path.trim() };
  const number = (v: string) => (v.trim() === '' ? undefined : Number(v));
  const status = number(values.status);
  const delayMs = number(values.delayMs);
  const times = number(values.times);
  if (status !== undefined) rule.status = status;
  if (values.error.trim()) rule.error = values.error.trim();
  if (delayMs !== undefined) rule.delayMs = delayMs;
  if (times !== undefined) rule.times = times;
  if (values.special) rule[values.special] = true;
  return rule;
}

function RuleForm() {
  const listId = useId();
  const [values, setValues] = useState<FormValues>(EMPTY_FORM);
  const set = (key: keyof FormValues) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: event.target.value }));
  const add = useQaAction((rule: QaFaultInput) => qaApi.addFault(rule), {
    changesData: false,
    quiet: true,
    success: (rule) => `Fault rule ${rule.id} added`,
    onDone: () => setValues(EMPTY_FORM),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(ruleFromForm(values));
  };
  return (
    <Stack asChild gap="3" borderWidth="1px" borderRadius="md" p="3">
      <form onSubmit={submit} noValidate aria-label="Add a fault rule">
        <Text fontWeight="semibold" fontSize="sm">
          Add a rule
        </Text>
        <Field.Root required>
          <Field.Label>
            Path
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            size="sm"
            value={values.path}
            onChange={set('path')}
            list={listId}
            placeholder="/user/view_profile or *"
            autoCapitalize="none"
          />
          <datalist id={listId}>
            {PATHS.map((p) => (
              <option key={p} value={p} />
            ))}
          </datalist>
        </Field.Root>
        <SimpleGrid columns={{ base: 2 }} gap="3">
          <Field.Root>
            <Field.Label>Status</Field.Label>
            <Input
              size="sm"
              type="number"
              inputMode="numeric"
              value={values.status}
              onChange={set('status')}
              placeholder="500"
            />
          </Field.Root>
          <Field.Root>
            <Field.Label>Delay (ms)</Field.Label>
            <Input
              size="sm"
              type="number"
              inputMode="numeric"
              value={values.delayMs}
              onChange={set('delayMs')}
              placeholder="0"
            />
          </Field.Root>
          <Field.Root>
            <Field.Label>Error message</Field.Label>
            <Input
              size="sm"
              value={values.error}
              onChange={set('error')}
              placeholder="Internal Server Error"
            />
          </Field.Root>
          <Field.Root>
            <Field.Label>Times</Field.Label>
            <Input
              size="sm"
              type="number"
              inputMode="numeric"
              value={values.times}
              onChange={set('times')}
              placeholder="until deleted"
            />
          </Field.Root>
        </SimpleGrid>
        <Field.Root>
          <Field.Label>Other effect</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field value={values.special} onChange={set('special')}>
              {SPECIAL.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        {add.error ? <ErrorNote error={add.error} /> : null}
        <Button type="submit" size="sm" colorPalette="purple" alignSelf="flex-start" loading={add.isPending}>
          Add rule
        </Button>
      </form>
    </Stack>
  );
}

export function FaultsTab() {
  const faults = useQuery({ queryKey: qaKeys.faults, queryFn: qaApi.faults });
  const rules = faults.data ?? [];
  const toggle = useQaAction(
    async ({ quick, on }: { quick: QuickFault; on: boolean }) => {
      if (on) await qaApi.addFault(quick.rule);
      else for (const rule of rulesOf(quick, rules)) await qaApi.deleteFault(rule.id);
    },
    { changesData: false, success: (_r, { quick, on }) => `${quick.label}: ${on ? 'on' : 'off'}` },
  );
  const remove = useQaAction((id: string) => qaApi.deleteFault(id), {
    changesData: false,
    success: (_r, id) => `Fault rule ${id} deleted`,
  });
  const clear = useQaAction(() => qaApi.clearFaults(), {
    changesData: false,
    success: (r) => `${r.deleted} fault rule${r.deleted === 1 ? '' : 's'} cleared`,
  });

  return (
    <Stack gap="4">
      <SectionHeader
        title="Fault rules"
        onRefresh={() => void faults.refetch()}
        refreshing={faults.isFetching}
      >
        <Button
          size="xs"
          variant="outline"
          colorPalette="red"
          onClick={() => clear.mutate(undefined)}
          disabled={!rules.length}
          loading={clear.isPending}
        >
          Clear all
        </Button>
      </SectionHeader>
      {faults.error ? <ErrorNote error={faults.error} /> : null}

      <Stack gap="2" role="group" aria-label="Quick faults">
        {QUICK_FAULTS.map((quick) => {
          const on = rulesOf(quick, rules).length > 0;
          return (
            <Switch.Root
              key={quick.label}
              size="sm"
              colorPalette="purple"
              checked={on}
              disabled={faults.isPending || toggle.isPending}
              onCheckedChange={(details) => toggle.mutate({ quick, on: details.checked })}
            >
              <Switch.HiddenInput />
              <Switch.Control />
              <Switch.Label fontWeight="normal">{quick.label}</Switch.Label>
            </Switch.Root>
          );
        })}
      </Stack>

      {faults.isPending ? (
        <EmptyNote>Loading...</EmptyNote>
      ) : rules.length === 0 ? (
        <EmptyNote>No fault rules: every call behaves.</EmptyNote>
      ) : (
        <ItemList label="Fault rules">
          {rules.map((rule) => (
            <Item key={rule.id} testId={`qa-fault-${rule.id}`}>
              <Flex justify="space-between" align="center" gap="2">
                <Stack gap="0" minW="0">
                  <Flex gap="2" align="center" wrap="wrap">
                    <Badge variant="outline">{rule.id}</Badge>
                    <Text fontFamily="mono" fontSize="sm" overflowWrap="anywhere">
                      {rule.path}
                    </Text>
                  </Flex>
                  <Text fontSize="xs" color="fg.muted">
                    {describeRule(rule)}
                  </Text>
                </Stack>
                <Button
                  size="xs"
                  variant="ghost"
                  colorPalette="red"
                  aria-label={`Delete rule ${rule.id}`}
                  onClick={() => remove.mutate(rule.id)}
                  loading={remove.isPending && remove.variables === rule.id}
                >
                  Delete
                </Button>
              </Flex>
            </Item>
          ))}
        </ItemList>
      )}

      <RuleForm />
    </Stack>
  );
}
