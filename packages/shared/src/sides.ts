/** Binary sides as the spec reads them; no imports, so the sign-in route can read a profile's side without the date formatters. */
/**
 * A binary side as the contract's '0' (left) or '1' (right); null when there is none. Spec §3: "0"
 * is Left, anything else Right; a provider that drifts to 'L'/'Left' still means left.
 */
export const sideOf = (side: unknown): '0' | '1' | null => {
  if (side === null || side === undefined || side === '') return null;
  const text = String(side).trim().toLowerCase();
  return text === '0' || text === 'l' || text === 'left' ? '0' : '1';
};
/** Side "0" (or 'L', 'Left') is Left, anything else Right; no side at all is '-'. */
export const sideLabel = (side: unknown) => {
  const known = sideOf(side);
  return known === null ? '-' : known === '0' ? 'Left' : 'Right';
};
