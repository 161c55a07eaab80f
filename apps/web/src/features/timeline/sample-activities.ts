/**
 * The spec's static timeline (§2): five sample activities, shown when the server offers no
 * `activity` extension (as against the real provider). Times are local wall-clock times. The words
 * are catalog messages (the `history` namespace), read in the member's language where shown.
 */
import type { MessageId } from '@/lib/i18n/catalog-types.ts';

export interface SampleActivity {
  id: string;
  title: MessageId;
  description: MessageId;
  /** ISO-8601 date-time. */
  dateTime: string;
}

export const SAMPLE_ACTIVITIES: readonly SampleActivity[] = [
  {
    id: 'sample-1',
    title: 'history.timeline.sample.packageTitle',
    description: 'history.timeline.sample.packageText',
    dateTime: '2025-01-15T10:30:00',
  },
  {
    id: 'sample-2',
    title: 'history.timeline.sample.depositTitle',
    description: 'history.timeline.sample.depositText',
    dateTime: '2025-01-15T09:45:00',
  },
  {
    id: 'sample-3',
    title: 'history.timeline.sample.memberTitle',
    description: 'history.timeline.sample.memberText',
    dateTime: '2025-01-14T16:20:00',
  },
  {
    id: 'sample-4',
    title: 'history.timeline.sample.passwordTitle',
    description: 'history.timeline.sample.passwordText',
    dateTime: '2025-01-12T11:05:00',
  },
  {
    id: 'sample-5',
    title: 'history.timeline.sample.accountTitle',
    description: 'history.timeline.sample.accountText',
    dateTime: '2025-01-10T08:00:00',
  },
];
