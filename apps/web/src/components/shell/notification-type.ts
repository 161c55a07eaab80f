/**
 * A notice's type in the member's language: the types the server writes have a label in the
 * `notifications` catalog; another one (a provider's own) is shown as sent, underscores as spaces
 * (capitalized by CSS where shown: `capitalizeUnknown`).
 */
import { useCallback } from 'react';
import { humanizeType } from '@md/shared';
import { useT } from '@/lib/i18n/i18n.tsx';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';

export const KNOWN_TYPES = [
  'ROI_Income',
  'Binary_Income',
  'Direct_Income',
  'Level_Income',
  'Rank_Achieved',
  'New_Registration',
  'Deposit',
  'Package_Purchase',
  'Withdrawal',
  'P2P_Transfer',
  'Security_Alert',
  'Welcome',
  'Profile_Update',
  'System',
  'Support_Message',
  'Qualified_Leaders',
] as const;

export const isKnownType = (type: string): type is (typeof KNOWN_TYPES)[number] =>
  (KNOWN_TYPES as readonly string[]).includes(type);

export function useNotificationType() {
  const t = useT();
  return useCallback(
    (type: string) =>
      isKnownType(type) ? t(`notifications.type.${type}` satisfies MessageId) : humanizeType(type),
    [t],
  );
}

/** Only a type shown as sent is capitalized: a translated label is already written as its language writes it. */
export const capitalizeUnknown = (type: string) => (isKnownType(type) ? undefined : 'capitalize');
