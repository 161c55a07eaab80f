/**
 * The panel's QA token prompt: shown at the top of the panel when a /__qa call was
 * refused with 401 because the server has a QA_TOKEN. One prompt for all the calls refused
 * together; they repeat with the token once it is entered.
 */
import { useEffect, useState, useSyncExternalStore, type FormEvent } from 'react';
import { Box, Button, Field, Flex, HStack, Input, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { qaKeys } from './qa-api.ts';
import { abandonQaTokenPrompt, allowQaTokenPrompt, answerQaToken, qaTokenState } from './qa-token.ts';

export const QA_TOKEN_TEXT = {
  label: 'QA token',
  help: 'This server asks for its QA_TOKEN on QA calls. Kept for this tab only.',
  refused: 'That token was refused: check the server’s QA_TOKEN.',
  declined: 'QA calls need the server’s QA token.',
} as const;

export function QaTokenPrompt() {
  const state = useSyncExternalStore(qaTokenState.subscribe, qaTokenState.get);
  const queryClient = useQueryClient();
  const [value, setValue] = useState('');
  // Each opening of the panel may ask again; closing it fails the calls still waiting for a token.
  useEffect(() => {
    allowQaTokenPrompt();
    return abandonQaTokenPrompt;
  }, []);

  if (state.kind === 'idle') return null;
  if (state.kind === 'declined')
    return (
      <Flex align="center" justify="space-between" gap="2" wrap="wrap" py="2" data-testid="qa-token-declined">
        <Text fontSize="sm" color="fg.muted">
          {QA_TOKEN_TEXT.declined}
        </Text>
        <Button
          size="xs"
          variant="outline"
          colorPalette="purple"
          onClick={() => {
            allowQaTokenPrompt();
            // The tabs' queries failed with 401: read again, which asks for the token.
            void queryClient.invalidateQueries({ queryKey: qaKeys.all });
          }}
        >
          Enter token
        </Button>
      </Flex>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const token = value.trim();
    if (!token) return;
    setValue('');
    answerQaToken(token);
  };
  return (
    <Box
      borderWidth="1px"
      borderColor="purple.muted"
      borderRadius="md"
      p="3"
      my="2"
      bg="bg.muted"
      data-testid="qa-token-prompt"
    >
      <form onSubmit={submit} noValidate aria-label="Enter the QA token">
        <Field.Root invalid={state.refused}>
          <Field.Label>{QA_TOKEN_TEXT.label}</Field.Label>
          <Input
            size="sm"
            type="password"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            // The panel cannot work until it is answered: the cursor goes there.
            autoFocus
          />
          {state.refused ? (
            <Field.ErrorText>{QA_TOKEN_TEXT.refused}</Field.ErrorText>
          ) : (
            <Field.HelperText>{QA_TOKEN_TEXT.help}</Field.HelperText>
          )}
        </Field.Root>
        <HStack gap="2" mt="2">
          <Button type="submit" size="sm" colorPalette="purple" disabled={!value.trim()}>
            Use token
          </Button>
          <Button size="sm" variant="ghost" onClick={() => answerQaToken(null)}>
            Cancel
          </Button>
        </HStack>
      </form>
    </Box>
  );
}
