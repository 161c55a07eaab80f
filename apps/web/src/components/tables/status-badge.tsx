/** A status as a badge: green when it is the good state, red otherwise (spec §2, §4). */
import { Badge } from '@chakra-ui/react';
import { cellText } from '@md/shared';

export function StatusBadge({ status, ok }: { status: unknown; ok: boolean }) {
  return (
    <Badge colorPalette={ok ? 'green' : 'red'} variant="subtle" data-tone={ok ? 'ok' : 'bad'}>
      {cellText(status)}
    </Badge>
  );
}
