/** The end of sign-in and of registration: keep the token, load the profile, greet, go to the dashboard. */
import { useNavigate } from 'react-router';
import { MSG } from '@md/shared';
import { useAuth } from '@/lib/auth.tsx';
import { useMessageText } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';

export function useStartSession() {
  const { completeSignIn } = useAuth();
  const navigate = useNavigate();
  const messageText = useMessageText();
  return async (response: unknown, successMessage: string) => {
    // Spec §8 'Invalid response': an answer without a usable token (missing, empty, not text).
    const jwt = (response as { JWT?: unknown } | null | undefined)?.JWT;
    if (typeof jwt !== 'string' || !jwt) {
      notify.error(messageText(MSG.invalidResponse));
      return;
    }
    await completeSignIn(jwt);
    notify.success(messageText(successMessage));
    navigate('/dashboard');
  };
}
