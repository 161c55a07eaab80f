/** What every benchmark needs from its command line and its samples. */

/** The value after `--name`, or undefined. */
export function stringArg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** The number after `--name`, or `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const value = stringArg(name);
  return value === undefined ? fallback : Number(value);
}

/** The median (the mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
