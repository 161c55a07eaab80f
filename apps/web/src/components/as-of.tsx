/**
 * Figures whose latest refresh failed are not shown as live: "as of 10:42", the time the figures on
 * screen were read (spec's 24-hour HH:mm, the member's clock), with the day in front when it was
 * not today.
 */
import { Text } from '@chakra-ui/react';

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '10:42', or 'Mar 05, 10:42' for another day than `now`'s. */
export function asOfTime(updatedAt: number, now = Date.now()): string {
  const at = new Date(updatedAt);
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  return at.toDateString() === new Date(now).toDateString()
    ? time
    : `${MONTHS[at.getMonth()]} ${pad(at.getDate())}, ${time}`;
}

/** "as of 10:42" beside a figure that is not current; `prefix` goes before it ("Available as of 10:42"). */
export function AsOf({ updatedAt, prefix }: { updatedAt: number; prefix?: string }) {
  const time = asOfTime(updatedAt);
  return (
    <Text
      as="span"
      display="block"
      textStyle="xs"
      fontWeight="medium"
      color="orange.fg"
      title={`Not current: the latest refresh failed. These figures are from ${time}.`}
      data-testid="as-of"
    >
      {prefix ? `${prefix} as of ${time}` : `as of ${time}`}
    </Text>
  );
}
