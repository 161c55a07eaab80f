/** A link that navigates inside the SPA, in Chakra's link look (teal, medium; components/first-screen). */
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

export function AppLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <RouterLink to={to} className="fs-link">
      {children}
    </RouterLink>
  );
}
