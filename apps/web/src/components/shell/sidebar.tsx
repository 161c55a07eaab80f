/** The sidebar: a 16 rem column from 768 px up; below, the same list in a drawer (frame-chakra.tsx) that closes on navigation. */
import { useId, type ComponentProps } from 'react';
import { NavLink } from 'react-router';
import { useT } from '@/lib/i18n/i18n.tsx';
import { EXTRA_ROUTES, NAV_ITEMS, type NavItem } from './nav-items.ts';
import { useNavText } from './nav-text.ts';

// Drawn with the first screen's classes (components/first-screen): the column is on every
// dashboard screen of a wide window. The router marks the current page's link with aria-current.
function NavLinks({
  items,
  onNavigate,
}: {
  items: readonly NavItem[];
  onNavigate?: (() => void) | undefined;
}) {
  const nav = useNavText();
  return (
    <ul className="fs-nav-list">
      {items.map(({ icon: ItemIcon, ...item }) => (
        <li key={item.path}>
          <NavLink to={item.path} end={item.end ?? false} onClick={onNavigate} className="fs-nav-link">
            <ItemIcon className="fs-nav-icon" aria-hidden focusable="false" />
            {nav.name(item)}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** The spec's thirteen items, then the routes it leaves out of them (Support, Timeline, …) under "More". */
export function NavList({ onNavigate }: { onNavigate?: () => void }) {
  // Both the column and the drawer render a list: each names its group by its own id.
  const moreId = useId();
  const t = useT();
  return (
    <div className="fs-nav">
      <NavLinks items={NAV_ITEMS} onNavigate={onNavigate} />
      <section aria-labelledby={moreId}>
        <p id={moreId} className="fs-nav-group-label">
          {t('shell.sidebar.more')}
        </p>
        <NavLinks items={EXTRA_ROUTES} onNavigate={onNavigate} />
      </section>
    </div>
  );
}

// Takes props: as the drawer's title (asChild) it receives the id the dialog is named by.
export function Brand({ className, ...props }: ComponentProps<'p'>) {
  const t = useT();
  return (
    <p className={className ? `fs-brand ${className}` : 'fs-brand'} {...props}>
      {t('shell.sidebar.brand')}
    </p>
  );
}

export function DesktopSidebar() {
  const t = useT();
  return (
    <nav aria-label={t('shell.sidebar.main')} className="fs-sidebar">
      <Brand />
      <NavList />
    </nav>
  );
}
