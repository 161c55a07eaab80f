/**
 * The P2P recipient check (spec §4): unverified → verified after level.downline_exist answers true.
 * Editing the username resets it.
 */
import { useState } from 'react';
import { MSG } from '@md/shared';
import { errorMessage } from '@/lib/errors.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

export function useRecipient() {
  const client = useTRPCClient();
  const [username, setUsernameState] = useState('');
  const [verified, setVerified] = useState(false);
  const [verifying, setVerifying] = useState(false);

  const setUsername = (value: string) => {
    setUsernameState(value.toLowerCase());
    setVerified(false);
  };

  const verify = async () => {
    const name = username.trim();
    if (!name) return notify.error(MSG.usernameRequired);
    setVerifying(true);
    try {
      const response = await client['level.downline_exist'].query({ username: name });
      setVerified(response.Success === true);
      if (response.Success === true) notify.success(MSG.recipientVerified);
      else notify.error(MSG.recipientNotFound);
    } catch (error) {
      setVerified(false);
      // An answer from the server reads as 'not found or invalid'; no answer at all is a failure to verify.
      notify.error(errorMessage(error, '') !== '' ? MSG.recipientNotFoundOrInvalid : MSG.errorVerifyingRecipient);
    } finally {
      setVerifying(false);
    }
  };

  return { username, setUsername, verified, verifying, verify };
}
