/** Copies a text and confirms with a 2-second toast. */
import { Button, type ButtonProps } from '@chakra-ui/react';
import { LuCopy } from 'react-icons/lu';
import { notify } from '../lib/toaster.ts';

export async function copyText(text: string, confirmation: string) {
  try {
    await navigator.clipboard.writeText(text);
    notify.copied(confirmation);
  } catch {
    notify.error('Could not copy to the clipboard');
  }
}

interface CopyButtonProps extends Omit<ButtonProps, 'onClick'> {
  text: string;
  confirmation: string;
}

export function CopyButton({ text, confirmation, children, ...props }: CopyButtonProps) {
  return (
    <Button size="sm" variant="outline" onClick={() => void copyText(text, confirmation)} {...props}>
      <LuCopy />
      {children}
    </Button>
  );
}
