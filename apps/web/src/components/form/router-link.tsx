/** A Chakra-styled link that navigates inside the SPA. */
import type { ReactNode } from 'react';
import { Link, type LinkProps } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';

export function AppLink({
  to,
  children,
  ...props
}: { to: string; children: ReactNode } & Omit<LinkProps, 'href'>) {
  return (
    <Link asChild colorPalette="teal" color="colorPalette.fg" fontWeight="medium" {...props}>
      <RouterLink to={to}>{children}</RouterLink>
    </Link>
  );
}
