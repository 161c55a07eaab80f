/**
 * The spec's static timeline (§2): five sample activities, shown when the server offers no
 * `activity` extension (as against the real provider). Times are local wall-clock times.
 */
import type { ActivityItem } from './activity-list.tsx';

export const SAMPLE_ACTIVITIES: readonly ActivityItem[] = [
  {
    id: 'sample-1',
    title: 'Package purchased',
    description: 'You purchased the Gold package for $1,000.',
    dateTime: '2025-01-15T10:30:00',
  },
  {
    id: 'sample-2',
    title: 'Deposit received',
    description: 'Your deposit of $1,000 USDT (BEP20) was credited to your Deposit wallet.',
    dateTime: '2025-01-15T09:45:00',
  },
  {
    id: 'sample-3',
    title: 'New team member',
    description: 'A new member joined your team on the left leg.',
    dateTime: '2025-01-14T16:20:00',
  },
  {
    id: 'sample-4',
    title: 'Password changed',
    description: 'Your account password was changed.',
    dateTime: '2025-01-12T11:05:00',
  },
  {
    id: 'sample-5',
    title: 'Account created',
    description: 'Welcome! Your account is ready.',
    dateTime: '2025-01-10T08:00:00',
  },
];
