/**
 * The P2P recipient check (spec §4): unverified → verified after level.downline_exist answers true.
 * Editing the username resets it.
 */
import { useState } from 'react';
import { MSG, TEXT_MAX } from '@md/shared';
import { errorMessage, failureKind } from '@/lib/errors.ts';
import { recordOf } from '@/lib/guards.ts';
import { useMessageText } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

export function useRecipient() {
  const client = useTRPCClient();
  const messageText = useMessageText();
  const [username, setUsernameState] = useState('');
  const [verified, setVerified] = useState(false);
  const [verifying, setVerifying] = useState(false);

  const setUsername = (value: string) => {
    setUsernameState(value.toLowerCase());
    setVerified(false);
  };

  const verify = async () => {
    const name = username.trim();
    if (!name) return notify.error(messageText(MSG.usernameRequired));
    // The server's own rule (TEXT_MAX), said before a call that could only be refused.
    if (name.length > TEXT_MAX.username) return notify.error(messageText(MSG.usernameTooLong));
    setVerifying(true);
    try {
      const response: unknown = await client['level.downline_exist'].query({ username: name });
      const found = recordOf(response)?.Success === true;
      setVerified(found);
      if (found) notify.success(messageText(MSG.recipientVerified));
      else notify.error(messageText(MSG.recipientNotFound));
    } catch (error) {
      setVerified(false);
      // The server's refusal reads as 'not found or invalid'; a failure without its words is
      // 'Failed to verify user', no answer at all 'Error verifying recipient' (docs/decisions/web-app.md).
      notify.error(
        messageText(
          failureKind(error) === 'server'
            ? MSG.recipientNotFoundOrInvalid
            : errorMessage(error, MSG.failedVerifyUser, MSG.errorVerifyingRecipient),
        ),
      );
    } finally {
      setVerifying(false);
    }
  };

  return { username, setUsername, verified, verifying, verify };
}
