/** The guards of spec §2: /dashboard needs a session; `/` (the sign-in form) is for visitors only. */
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { FullScreenSpinner } from '../components/full-screen-spinner.tsx';
import { useAuth } from '../lib/auth.tsx';
import { getJwt } from '../lib/storage.ts';

export function RequireAuth({ children }: { children: ReactNode }) {
  const { loading, isAuthenticated } = useAuth();
  if (loading) return <FullScreenSpinner />;
  if (!isAuthenticated) return <Navigate to="/" replace />;
  return children;
}

/**
 * A signed-in member opening `/` goes to /dashboard instead of seeing the form again.
 * A visitor with no stored token gets the form on the first render, while auth restores the
 * session: the sign-in page's first paint waits for nothing.
 */
export function RedirectSignedIn({ children }: { children: ReactNode }) {
  const { loading, isAuthenticated } = useAuth();
  if (isAuthenticated) return <Navigate to="/dashboard" replace />;
  if (loading && getJwt()) return <FullScreenSpinner />;
  return children;
}
