import type { NavRoute } from './shell/nav-routes.ts';
import { useNavText } from './shell/nav-text.ts';

/**
 * A page's heading: a dashboard route's own (`route`, in the member's language), or the text given.
 * Drawn with the first screen's classes (components/first-screen): it is on every dashboard screen.
 */
export function PageHeader({
  route,
  username,
  heading,
  description,
}: {
  route?: Pick<NavRoute, 'path' | 'description'> | undefined;
  username?: string;
  heading?: string;
  description?: string | undefined;
}) {
  const nav = useNavText();
  const title = route ? nav.heading(route, username) : heading;
  const subtitle = route ? nav.description(route) : description;
  return (
    <div className="fs-page-header">
      <h1 className="fs-page-title">{title}</h1>
      {subtitle && <p className="fs-page-description">{subtitle}</p>}
    </div>
  );
}
