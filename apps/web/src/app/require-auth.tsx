/** The guard of /dashboard (spec §2): a spinner while auth loads, '/' without a session. */
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { FullScreenSpinner } from '../components/full-screen-spinner.tsx';
import { useAuth } from '../lib/auth.tsx';

export function RequireAuth({ children }: { children: ReactNode }) {
  const { loading, isAuthenticated } = useAuth();
  if (loading) return <FullScreenSpinner />;
  if (!isAuthenticated) return <Navigate to="/" replace />;
  return children;
}
