/** The end of sign-in and of registration: keep the token, load the profile, greet, go to the dashboard. */
import { useNavigate } from 'react-router';
import { MSG } from '@md/shared';
import { useAuth } from '@/lib/auth.tsx';
import { notify } from '@/lib/toaster.ts';

export function useStartSession() {
  const { completeSignIn } = useAuth();
  const navigate = useNavigate();
  return async (response: { JWT?: string } | undefined, successMessage: string) => {
    if (!response?.JWT) {
      notify.error(MSG.invalidResponse);
      return;
    }
    await completeSignIn(response.JWT);
    notify.success(successMessage);
    navigate('/dashboard');
  };
}
