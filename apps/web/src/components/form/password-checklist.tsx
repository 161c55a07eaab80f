/** The live registration password checklist (spec §5). */
import { List } from '@chakra-ui/react';
import { LuCircle, LuCircleCheck } from 'react-icons/lu';
import { PASSWORD_CHECKLIST } from '@md/shared';

export function PasswordChecklist({ password }: { password: string }) {
  return (
    <List.Root gap="1" variant="plain" fontSize="sm" aria-label="Password requirements">
      {PASSWORD_CHECKLIST.map((rule) => {
        const met = rule.test(password);
        return (
          <List.Item key={rule.label} color={met ? 'green.fg' : 'fg.muted'} data-met={met}>
            <List.Indicator asChild>{met ? <LuCircleCheck /> : <LuCircle />}</List.Indicator>
            {rule.label}
          </List.Item>
        );
      })}
    </List.Root>
  );
}
