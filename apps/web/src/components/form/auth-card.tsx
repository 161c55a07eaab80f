/**
 * The frame of the sign-in screens: a centred card with the language menu and the theme toggle
 * (spec §1), so a visitor can read the screens in their language before signing in. Drawn with the
 * first screen's classes (components/first-screen), not Chakra components: sign-in renders it
 * before Chakra's runtime has loaded, and the other sign-in screens and the offline screen share it.
 */
import type { ReactNode } from 'react';
import { LanguageSelect } from '../language-select.tsx';
import { ThemeToggle } from '../ui/theme-toggle.tsx';

export function AuthCard({
  title,
  subtitle,
  children,
  footer,
  languageMenu = true,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  footer?: ReactNode;
  /** The language menu beside the theme toggle (not on the offline screen). */
  languageMenu?: boolean;
}) {
  return (
    // data-auth-frame: the QA button's bottom clearance finds the frame by it (features/qa-panel/index.tsx).
    <div className="fs-frame" data-auth-frame="">
      {/* In the flow, not floating, so it never covers the card on narrow screens. */}
      <div className="fs-frame-top">
        {languageMenu && <LanguageSelect />}
        <ThemeToggle />
      </div>
      <main className="fs-card">
        <div className="fs-card-header">
          <h1 className="fs-heading">{title}</h1>
          {subtitle && <p className="fs-muted">{subtitle}</p>}
        </div>
        <div className="fs-card-body">{children}</div>
        {footer && <div className="fs-card-footer">{footer}</div>}
      </main>
    </div>
  );
}
