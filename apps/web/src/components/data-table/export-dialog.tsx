/**
 * The export dialog of a paged table, loaded only when a member opens it: pick columns
 * (the visible ones ticked), then every page of the rows matching the table's current criteria is
 * written as CSV, with a progress bar and Cancel. A failure or a cancel says so and keeps nothing.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, CloseButton, Dialog, Portal, Progress, Stack, Text, chakra } from '@chakra-ui/react';
import { contract, type TableInput } from '@md/shared';
import { errorMessage } from '@/lib/errors.ts';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { isRecord, numberOf } from '@/lib/guards.ts';
import { useTRPCClient } from '@/lib/trpc.ts';
import {
  ExportCancelled,
  csvFileName,
  exportRows,
  openCsvSink,
  type ExportProgress,
  type ExportSource,
} from './export-rows.ts';
import type { DataColumn, PagedListName, PagedTotalName } from './types.ts';

export interface ExportDialogProps {
  list: PagedListName;
  total: PagedTotalName;
  /** Search, dates and filters as the table sends them (no page). */
  criteria: TableInput;
  columns: readonly DataColumn<unknown>[];
  /** Keys of the columns the table shows now: ticked at first. */
  visibleKeys: readonly string[];
  caption: string;
  onClose: () => void;
}

/** The one shape every paged procedure's client call shares (the union of names is too wide to call). */
interface PagedCall {
  query(input: TableInput, options?: { signal?: AbortSignal }): Promise<unknown>;
}

type Phase =
  | { kind: 'choose' }
  | { kind: 'running'; progress: ExportProgress | null }
  | { kind: 'done'; rows: number; file: string }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' };

/**
 * The table's own calls (same transport, both client modes): an answer that is not what the table
 * reads fails the export. Where the server gives a `Next_Cursor` (capability cursor_paging), each
 * page after the first is asked by it, so rows that arrive during the export never repeat a row;
 * a server without one is read by page number.
 */
function useExportSource(
  list: PagedListName,
  total: PagedTotalName,
  criteria: TableInput,
): ExportSource<unknown> {
  const t = useT();
  const client = useTRPCClient() as unknown as Record<string, PagedCall>;
  const { pageNo: _pageNo, ...query } = criteria;
  // The server's Next_Cursor after the page before: undefined when it gives none, null after the last page.
  let cursor: string | null | undefined;
  return {
    async fetchTotalPages(pageSize, signal) {
      const answer = await client[total]!.query(
        { ...query, pageSize, path: contract[total].path },
        { signal },
      );
      const pages = numberOf(isRecord(answer) ? answer.Success : undefined);
      if (pages === undefined) throw new Error(t('tables.exportDialog.pageCountUnreadable'));
      return pages;
    },
    async fetchPage(pageNo, pageSize, signal) {
      if (pageNo === 1) cursor = undefined;
      if (cursor === null) return [];
      const answer = await client[list]!.query(
        {
          ...query,
          ...(cursor === undefined ? { pageNo } : { cursor }),
          pageSize,
          path: contract[list].path,
        },
        { signal },
      );
      const rows = isRecord(answer) ? answer.Success : undefined;
      if (!Array.isArray(rows)) throw new Error(t('tables.exportDialog.pageUnreadable', { page: pageNo }));
      const next = isRecord(answer) ? answer.Next_Cursor : undefined;
      cursor = typeof next === 'string' || next === null ? next : undefined;
      return rows;
    },
  };
}

export default function ExportDialog({
  list,
  total,
  criteria,
  columns: shown,
  visibleKeys,
  caption,
  onClose,
}: ExportDialogProps) {
  const t = useT();
  const messageText = useMessageText();
  // What a CSV can hold: the data columns (a row's buttons are not data).
  const columns = shown.filter((column) => !column.action);
  const [picked, setPicked] = useState<readonly string[]>(() =>
    columns.filter((c) => visibleKeys.includes(c.key)).map((c) => c.key),
  );
  const [phase, setPhase] = useState<Phase>({ kind: 'choose' });
  const controller = useRef<AbortController | null>(null);
  const source = useExportSource(list, total, criteria);
  const running = phase.kind === 'running';

  // Closing the dialog (or leaving the page) mid-way cancels the export.
  useEffect(() => () => controller.current?.abort(), []);

  async function start() {
    const chosen = columns.filter((column) => picked.includes(column.key));
    const abort = new AbortController();
    controller.current = abort;
    try {
      // First, while the click still counts as the member's gesture: the save picker needs one.
      const sink = await openCsvSink(csvFileName(caption), window, t('tables.exportDialog.csvFile'));
      if (!sink) return;
      setPhase({ kind: 'running', progress: null });
      const rows = await exportRows({
        source,
        columns: chosen,
        sink,
        signal: abort.signal,
        onProgress: (progress) => setPhase({ kind: 'running', progress }),
      });
      setPhase({ kind: 'done', rows, file: sink.name });
    } catch (error) {
      if (error instanceof ExportCancelled) setPhase({ kind: 'cancelled' });
      else
        setPhase({
          kind: 'failed',
          message: messageText(errorMessage(error, t('tables.exportDialog.failed'))),
        });
    }
  }

  const close = () => {
    controller.current?.abort();
    onClose();
  };
  const toggle = (key: string, on: boolean) =>
    setPicked((keys) => (on ? [...keys, key] : keys.filter((k) => k !== key)));
  const progress = phase.kind === 'running' ? phase.progress : null;
  const percent = progress
    ? Math.min(100, Math.round((progress.pagesDone / progress.totalPages) * 100))
    : null;

  return (
    <Dialog.Root
      open
      onOpenChange={(details) => !details.open && close()}
      placement="center"
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4" data-testid="export-dialog">
            <Dialog.Header>
              <Dialog.Title>{t('tables.exportDialog.title', { caption })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Text fontSize="sm" color="fg.muted">
                  {t('tables.exportDialog.description')}
                </Text>
                {/* Native checkboxes: Chakra's Checkbox and Fieldset recipes would add to every screen's Chakra chunk (components/ui/system.ts). */}
                <chakra.fieldset disabled={running} border="0" p="0" m="0" minW="0">
                  <chakra.legend fontWeight="medium" fontSize="sm" mb="2">
                    {t('tables.columns')}
                  </chakra.legend>
                  <Stack gap="2">
                    {columns.map((column) => (
                      <chakra.label
                        key={column.key}
                        display="flex"
                        alignItems="center"
                        gap="2"
                        fontSize="sm"
                        cursor="pointer"
                      >
                        <chakra.input
                          type="checkbox"
                          w="4"
                          h="4"
                          accentColor="teal.solid"
                          checked={picked.includes(column.key)}
                          onChange={(event) => toggle(column.key, event.target.checked)}
                        />
                        {column.header}
                      </chakra.label>
                    ))}
                  </Stack>
                  {picked.length === 0 && (
                    <Text fontSize="sm" color="fg.error" mt="2">
                      {t('tables.exportDialog.chooseColumn')}
                    </Text>
                  )}
                </chakra.fieldset>
                {running && (
                  <Progress.Root
                    value={percent}
                    size="sm"
                    colorPalette="teal"
                    aria-label={t('tables.exportDialog.progressLabel')}
                  >
                    <Progress.Track>
                      <Progress.Range />
                    </Progress.Track>
                    <Text fontSize="sm" mt="2" aria-live="polite" data-testid="export-progress">
                      {progress
                        ? t('tables.exportDialog.progress', {
                            done: progress.pagesDone,
                            total: progress.totalPages,
                            rows: progress.rows,
                          })
                        : t('tables.exportDialog.starting')}
                    </Text>
                  </Progress.Root>
                )}
                {phase.kind === 'done' && (
                  <Alert.Root status="success" role="status">
                    <Alert.Indicator />
                    <Alert.Title>
                      {t('tables.exportDialog.exported', { rows: phase.rows, file: phase.file })}
                    </Alert.Title>
                  </Alert.Root>
                )}
                {phase.kind === 'failed' && (
                  <Alert.Root status="error" role="alert">
                    <Alert.Indicator />
                    <Alert.Title>
                      {t('tables.exportDialog.failedWith', { message: phase.message })}
                    </Alert.Title>
                  </Alert.Root>
                )}
                {phase.kind === 'cancelled' && (
                  <Alert.Root status="info" role="status">
                    <Alert.Indicator />
                    <Alert.Title>{t('tables.exportDialog.cancelled')}</Alert.Title>
                  </Alert.Root>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              {running ? (
                <Button variant="outline" onClick={() => controller.current?.abort()}>
                  {t('tables.exportDialog.cancelExport')}
                </Button>
              ) : (
                <>
                  <Button variant="outline" onClick={close}>
                    {phase.kind === 'choose' ? t('common.cancel') : t('tables.exportDialog.done')}
                  </Button>
                  <Button colorPalette="teal" disabled={picked.length === 0} onClick={() => void start()}>
                    {phase.kind === 'choose'
                      ? t('tables.exportDialog.exportCsv')
                      : t('tables.exportDialog.exportAgain')}
                  </Button>
                </>
              )}
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
