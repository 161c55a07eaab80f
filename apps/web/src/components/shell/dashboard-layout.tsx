/**
 * The protected shell: sidebar + header + the child route; keeps the profile fresh. Drawn with the
 * first screen's classes (components/first-screen), not Chakra's style props: it renders on every
 * dashboard screen, and resolving its styles at run time was most of a phone's first render.
 */
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { useProfileRefresh } from '../../lib/auth.tsx';
import { useIsMobile } from '../../lib/use-is-mobile.ts';
import { FullScreenSpinner } from '../full-screen-spinner.tsx';
import { Header } from './header.tsx';
import { useFrameParts } from './frame-parts.ts';
import { DesktopSidebar } from './sidebar.tsx';

export default function DashboardLayout() {
  const [menuOpen, setMenuOpen] = useState(false);
  // The drawer (Chakra's, frame-chakra.tsx) is loaded when first opened, and then kept (it animates out on close).
  const { parts, request } = useFrameParts();
  useProfileRefresh();
  // One navigation per width: the hidden desktop sidebar was 134 of the frame's 325 elements on a
  // phone, rendered and styled for nothing.
  const isMobile = useIsMobile();
  return (
    <div className="fs-shell">
      {!isMobile && <DesktopSidebar />}
      {parts && <parts.MobileSidebar open={menuOpen} onOpenChange={setMenuOpen} />}
      <div className="fs-shell-column">
        <Header onOpenMenu={() => (parts ? setMenuOpen(true) : request(() => setMenuOpen(true)))} />
        <main className="fs-shell-main">
          <Suspense fallback={<FullScreenSpinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
