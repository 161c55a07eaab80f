/**
 * The Lucide icons the first screen draws (password visibility, the read-only lock, the theme
 * toggle, the QA button), made by react-icons' own GenIcon from Lucide's shapes. Not imported from
 * 'react-icons/lu': that is one module holding every Lucide icon, and in the first screen's chunk
 * it would bring along every icon any page uses. first-screen-icons.test.tsx holds each one
 * identical to react-icons' own.
 */
import { GenIcon, type IconTree } from 'react-icons/lib';

const LUCIDE_SVG = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: '2',
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
};

const lucide = (...child: [tag: string, attr: Record<string, string>][]) =>
  GenIcon({
    tag: 'svg',
    attr: LUCIDE_SVG,
    child: child.map(([tag, attr]): IconTree => ({ tag, attr, child: [] })),
  });
const path = (d: string): [string, Record<string, string>] => ['path', { d }];

export const LuEye = lucide(
  path(
    'M2.062 12.348a1 1 0 0 1 0-.696 10.75 10.75 0 0 1 19.876 0 1 1 0 0 1 0 .696 10.75 10.75 0 0 1-19.876 0',
  ),
  ['circle', { cx: '12', cy: '12', r: '3' }],
);
export const LuEyeOff = lucide(
  path('M10.733 5.076a10.744 10.744 0 0 1 11.205 6.575 1 1 0 0 1 0 .696 10.747 10.747 0 0 1-1.444 2.49'),
  path('M14.084 14.158a3 3 0 0 1-4.242-4.242'),
  path('M17.479 17.499a10.75 10.75 0 0 1-15.417-5.151 1 1 0 0 1 0-.696 10.75 10.75 0 0 1 4.446-5.143'),
  path('m2 2 20 20'),
);
export const LuLock = lucide(
  ['rect', { width: '18', height: '11', x: '3', y: '11', rx: '2', ry: '2' }],
  path('M7 11V7a5 5 0 0 1 10 0v4'),
);
export const LuMoon = lucide(path('M12 3a6 6 0 0 0 9 9 9 9 0 1 1-9-9Z'));
export const LuSun = lucide(
  ['circle', { cx: '12', cy: '12', r: '4' }],
  path('M12 2v2'),
  path('M12 20v2'),
  path('m4.93 4.93 1.41 1.41'),
  path('m17.66 17.66 1.41 1.41'),
  path('M2 12h2'),
  path('M20 12h2'),
  path('m6.34 17.66-1.41 1.41'),
  path('m19.07 4.93-1.41 1.41'),
);
export const LuFlaskConical = lucide(
  path(
    'M10 2v7.527a2 2 0 0 1-.211.896L4.72 20.55a1 1 0 0 0 .9 1.45h12.76a1 1 0 0 0 .9-1.45l-5.069-10.127A2 2 0 0 1 14 9.527V2',
  ),
  path('M8.5 2h7'),
  path('M7 16h10'),
);
