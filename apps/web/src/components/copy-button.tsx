/** A button that copies a text and confirms with a 2-second toast (lib/copy.ts). */
import { Button, type ButtonProps } from '@chakra-ui/react';
import { LuCopy } from 'react-icons/lu';
import { useT } from '@/lib/i18n/i18n.tsx';
import { copyText } from '../lib/copy.ts';

interface CopyButtonProps extends Omit<ButtonProps, 'onClick'> {
  text: string;
  confirmation: string;
}

export function CopyButton({ text, confirmation, children, ...props }: CopyButtonProps) {
  const t = useT();
  return (
    <Button
      size="sm"
      variant="outline"
      onClick={() => void copyText(text, confirmation, t('common.copyFailed'))}
      {...props}
    >
      <LuCopy />
      {children}
    </Button>
  );
}
