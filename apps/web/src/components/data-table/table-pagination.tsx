/** Footer: rows per page (10/25/50), previous/next, 'current / total' and a page jump (spec §2, §5). */
import { useState } from 'react';
import { Field, Flex, HStack, IconButton, Input, NativeSelect, Text } from '@chakra-ui/react';
import { LuChevronLeft, LuChevronRight } from 'react-icons/lu';
import { TABLE_PAGE_SIZES, parsePageJump } from '@md/shared';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';

const MIRRORED = { '& svg': { transform: 'scaleX(-1)' } } as const;

interface TablePaginationProps {
  page: number;
  totalPages: number;
  pageSize: number;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}

export function TablePagination({ page, totalPages, pageSize, onPage, onPageSize }: TablePaginationProps) {
  const t = useT();
  const f = useFormat();
  return (
    <Flex
      as="nav"
      aria-label={t('tables.pagination')}
      gap="4"
      wrap="wrap"
      align="center"
      justify="space-between"
      pt="3"
    >
      <Field.Root orientation="horizontal" w="auto" gap="2">
        <Field.Label fontSize="sm" whiteSpace="nowrap" mb="0">
          {t('tables.rowsPerPage')}
        </Field.Label>
        <NativeSelect.Root size="sm" w="20">
          <NativeSelect.Field value={pageSize} onChange={(event) => onPageSize(Number(event.target.value))}>
            {TABLE_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {f.number(size)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <HStack gap="2">
        <IconButton
          aria-label={t('tables.previousPage')}
          // Back and forward point the other way in a right-to-left language.
          _rtl={MIRRORED}
          size="sm"
          variant="outline"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          <LuChevronLeft />
        </IconButton>
        <Text fontSize="sm" minW="14" textAlign="center" data-testid="page-indicator" aria-live="polite">
          {t('tables.pageIndicator', { page, total: totalPages })}
        </Text>
        <IconButton
          aria-label={t('tables.nextPage')}
          _rtl={MIRRORED}
          size="sm"
          variant="outline"
          disabled={page >= totalPages}
          onClick={() => onPage(page + 1)}
        >
          <LuChevronRight />
        </IconButton>
        <PageJump page={page} totalPages={totalPages} onPage={onPage} />
      </HStack>
    </Flex>
  );
}

/** Applied on blur or Enter; anything but a whole number in 1..total reverts to the current page. */
function PageJump({ page, totalPages, onPage }: Omit<TablePaginationProps, 'pageSize' | 'onPageSize'>) {
  // null: not being edited, so it shows the current page (and follows it).
  const t = useT();
  const [draft, setDraft] = useState<string | null>(null);
  const apply = () => {
    if (draft === null) return;
    const target = parsePageJump(draft, totalPages);
    if (target !== null && target !== page) onPage(target);
    setDraft(null);
  };
  return (
    <Input
      aria-label={t('tables.goToPage')}
      size="sm"
      w="16"
      type="number"
      inputMode="numeric"
      min={1}
      max={totalPages}
      step={1}
      value={draft ?? String(page)}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={apply}
      onKeyDown={(event) => {
        if (event.key === 'Enter') apply();
      }}
    />
  );
}
