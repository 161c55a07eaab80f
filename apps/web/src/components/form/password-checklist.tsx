/** The live registration password checklist (spec §5). */
import { List } from '@chakra-ui/react';
import { LuCircle, LuCircleCheck } from 'react-icons/lu';
import { PASSWORD_CHECKLIST, REGISTRATION_SPECIALS } from '@md/shared';
import { useT } from '@/lib/i18n/i18n.tsx';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';

/** The checklist's rules in their order (PASSWORD_CHECKLIST), each its text in the catalog. */
const RULE_TEXT: readonly MessageId[] = [
  'common.passwordRule.length',
  'common.passwordRule.uppercase',
  'common.passwordRule.number',
  'common.passwordRule.special',
];

export function PasswordChecklist({ password }: { password: string }) {
  const t = useT();
  return (
    <List.Root gap="1" variant="plain" fontSize="sm" aria-label={t('common.passwordRequirements')}>
      {PASSWORD_CHECKLIST.map((rule, index) => {
        const id = RULE_TEXT[index];
        const met = rule.test(password);
        return (
          <List.Item key={rule.label} color={met ? 'green.fg' : 'fg.muted'} data-met={met}>
            <List.Indicator asChild>{met ? <LuCircleCheck /> : <LuCircle />}</List.Indicator>
            {id ? t(id, { specials: REGISTRATION_SPECIALS }) : rule.label}
          </List.Item>
        );
      })}
    </List.Root>
  );
}
