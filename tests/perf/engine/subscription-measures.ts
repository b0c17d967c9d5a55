import type { ChildStats } from './children.ts';

/*
 * What the subscription load reads off the engine process between two snapshots of its stats:
 * a trend's slope, the CPU it used and the statements of each kind it ran.
 */

/** Least-squares slope of y over x, with its standard error. */
export function slope(points: ReadonlyArray<readonly [number, number]>): {
  slope: number;
  stderr: number;
} {
  const n = points.length;
  if (n < 2) return { slope: 0, stderr: 0 };
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const [x, y] of points) {
    sxx += (x - meanX) ** 2;
    sxy += (x - meanX) * (y - meanY);
  }
  if (sxx === 0) return { slope: 0, stderr: 0 };
  const b = sxy / sxx;
  if (n < 3) return { slope: b, stderr: 0 };
  const residuals = points.reduce((sum, [x, y]) => sum + (y - meanY - b * (x - meanX)) ** 2, 0);
  return { slope: b, stderr: Math.sqrt(residuals / (n - 2) / sxx) };
}

export function cpuPercent(before: ChildStats, after: ChildStats, wallMs: number): number | null {
  if (wallMs <= 0) return null;
  const usedUs = after.cpuUserUs + after.cpuSystemUs - before.cpuUserUs - before.cpuSystemUs;
  return Math.round((usedUs / 1000 / wallMs) * 1000) / 10;
}

export function kindDelta(before: ChildStats, after: ChildStats): Record<string, number> | null {
  if (!after.statementKinds) return null;
  const delta: Record<string, number> = {};
  for (const [kind, count] of Object.entries(after.statementKinds)) {
    const grown = count - (before.statementKinds?.[kind] ?? 0);
    if (grown > 0) delta[kind] = grown;
  }
  return delta;
}
