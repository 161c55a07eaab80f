/**
 * Reading provider data defensively (spec §8: nothing crashes on an unexpected body). The client
 * does not validate answers against the contract (the real provider may differ in details the
 * screens do not care about), so screens read what they show through these: a missing field, a
 * null `Success`, or an array where an object belongs give the screen's empty value, never a throw.
 */

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object, or undefined for null, arrays and scalars. */
export const recordOf = <T extends object = Record<string, unknown>>(value: unknown): T | undefined =>
  isRecord(value) ? (value as T) : undefined;

/** The list's object items; anything that is not a list is an empty one. */
export const listOf = <T extends object = Record<string, unknown>>(value: unknown): T[] =>
  Array.isArray(value) ? (value.filter(isRecord) as T[]) : [];

/** Text to show: strings as they are, numbers as text, anything else the fallback. */
export const textOf = (value: unknown, fallback = ''): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' && Number.isFinite(value)
      ? String(value)
      : fallback;

/** A finite number (numeric strings included), else undefined: the formatters' own reading. */
export { numberOf } from '@md/shared';
