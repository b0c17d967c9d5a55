import { median } from '../engine/stats.ts';

import type { LighthouseMetrics } from './lighthouse.ts';

/*
 * The printed table and the `summary` of bench-results/web.json. Each Lighthouse figure is the
 * median of the page's runs (taken figure by figure); sizes come from the build on disk.
 */

export type PageName = 'home' | 'product' | 'create_transaction' | 'floor';

export interface PageDefinition {
  name: PageName;
  label: string;
  /** Path on the portal (or the floor server). */
  path: string;
  floor?: boolean;
}

export const PAGES: PageDefinition[] = [
  { name: 'home', label: 'home /', path: '/' },
  { name: 'product', label: 'product page', path: '/products/car-purchase' },
  {
    name: 'create_transaction',
    label: 'create-transaction',
    path: '/create-transaction/btc-to-usdttrc20',
  },
  { name: 'floor', label: 'floor (React 18)', path: '/', floor: true },
];

export const GOALS = {
  /** The issue: Lighthouse mobile performance score on every portal page. */
  lighthouse_min_score: 95,
  /** The issue: first-load JS on home, KB (1,024 bytes) gzip. */
  home_first_load_js_kb_gzip: 150,
} as const;

export interface ScriptSize {
  path: string;
  bytes: number;
  gzip_bytes: number;
}

export interface FirstLoad {
  /** Every first-load script with its size, largest first. */
  scripts: ScriptSize[];
  kb_gzip: number;
  kb_raw: number;
  /** Declared by the HTML (closure over static imports). */
  declared_count: number;
  /** Loaded during the Lighthouse runs beyond the declared ones (lazy imports on mount). */
  loaded_after_mount: string[];
  /** Needed by the module graph but without a `<link rel=modulepreload>` (a waterfall). */
  not_preloaded: string[];
  /** Inline scripts of the document (part of the HTML, counted apart). */
  inline_kb_gzip: number;
  /** Bytes on the wire for the scripts, as served (brotli or gzip), from the first run. */
  transfer_kb: number | null;
}

export interface PageResult {
  name: PageName;
  label: string;
  url: string;
  runs: LighthouseMetrics[];
  median: LighthouseMetrics;
  first_load: FirstLoad;
  /** Audits that failed in at least one run: id -> display value of the last such run. */
  failed_audits: Record<string, string>;
}

export function medianMetrics(runs: LighthouseMetrics[]): LighthouseMetrics {
  const pick = (key: keyof LighthouseMetrics) => median(runs.map((run) => run[key])) ?? NaN;
  return {
    score: pick('score'),
    fcp_ms: Math.round(pick('fcp_ms')),
    lcp_ms: Math.round(pick('lcp_ms')),
    tbt_ms: Math.round(pick('tbt_ms')),
    cls: pick('cls'),
    si_ms: Math.round(pick('si_ms')),
    tti_ms: Math.round(pick('tti_ms')),
    ttfb_ms: Math.round(pick('ttfb_ms')),
  };
}

export interface WebSummary {
  lighthouse_min_score: number;
  home_first_load_js_kb_gzip: number;
  [key: string]: number | null;
}

/** The top-level summary: the two goal figures, then per-page scores, sizes and vitals. */
export function summarize(pages: PageResult[]): WebSummary {
  const portal = pages.filter((page) => page.name !== 'floor');
  const home = pages.find((page) => page.name === 'home');
  const summary: WebSummary = {
    lighthouse_min_score: Math.min(...portal.map((page) => page.median.score)),
    home_first_load_js_kb_gzip: home?.first_load.kb_gzip ?? NaN,
  };
  for (const page of pages) {
    summary[`${page.name}_score`] = page.median.score;
    summary[`${page.name}_first_load_js_kb_gzip`] = page.first_load.kb_gzip;
    summary[`${page.name}_lcp_ms`] = page.median.lcp_ms;
    summary[`${page.name}_tbt_ms`] = page.median.tbt_ms;
    summary[`${page.name}_cls`] = page.median.cls;
    summary[`${page.name}_fcp_ms`] = page.median.fcp_ms;
  }
  return summary;
}

export interface GoalResult {
  goal: string;
  target: string;
  value: number;
  met: boolean;
}

/** A goal `value` meets when it is at least `min`. */
export const atLeast = (goal: string, value: number, min: number): GoalResult => ({
  goal,
  target: `>= ${min}`,
  value,
  met: value >= min,
});

/** A goal `value` meets when it is at most `max`. */
export const atMost = (goal: string, value: number, max: number): GoalResult => ({
  goal,
  target: `<= ${max}`,
  value,
  met: value <= max,
});

/** A line per goal: met or MISSED, the figure and the goal. */
export function renderGoals(goals: GoalResult[]): string {
  return goals
    .map(
      (goal) =>
        `${goal.met ? 'met   ' : 'MISSED'} ${goal.goal}: ${goal.value} (goal ${goal.target})`,
    )
    .join('\n');
}

export function judge(summary: WebSummary): GoalResult[] {
  return [
    atLeast(
      'Lighthouse mobile performance, lowest portal page (median of runs)',
      summary.lighthouse_min_score,
      GOALS.lighthouse_min_score,
    ),
    atMost(
      'first-load JS on home, KB gzip',
      summary.home_first_load_js_kb_gzip,
      GOALS.home_first_load_js_kb_gzip,
    ),
  ];
}

/** Pages side by side, one row per figure. */
export function renderTable(pages: PageResult[]): string {
  const rows: Array<[string, (page: PageResult) => string]> = [
    ['performance score', (page) => String(page.median.score)],
    ['  runs', (page) => page.runs.map((run) => run.score).join(' / ')],
    ['FCP (ms)', (page) => String(page.median.fcp_ms)],
    ['LCP (ms)', (page) => String(page.median.lcp_ms)],
    ['TBT (ms)', (page) => String(page.median.tbt_ms)],
    ['CLS', (page) => page.median.cls.toFixed(3)],
    ['Speed Index (ms)', (page) => String(page.median.si_ms)],
    ['TTI (ms)', (page) => String(page.median.tti_ms)],
    ['first-load JS (KB gzip)', (page) => page.first_load.kb_gzip.toFixed(1)],
    ['  scripts', (page) => String(page.first_load.scripts.length)],
    ['  raw (KB)', (page) => page.first_load.kb_raw.toFixed(1)],
    ['  on the wire (KB)', (page) => page.first_load.transfer_kb?.toFixed(1) ?? 'n/a'],
    ['  inline scripts (KB gzip)', (page) => page.first_load.inline_kb_gzip.toFixed(1)],
    ['  not modulepreloaded', (page) => String(page.first_load.not_preloaded.length)],
    ['  loaded after mount', (page) => String(page.first_load.loaded_after_mount.length)],
  ];
  const header = ['', ...pages.map((page) => page.label)];
  const body = rows.map(([label, cell]) => [label, ...pages.map(cell)]);
  return alignTable(header, body);
}

/** A text table: the first column left-aligned, the others right-aligned, a rule under the header. */
export function alignTable(header: string[], body: string[][]): string {
  const widths = header.map((_, column) =>
    Math.max(...[header, ...body].map((row) => row[column]!.length)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[0]!) : cell.padStart(widths[column]!),
      )
      .join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join(
    '\n',
  );
}

/** The largest first-load scripts of a page, for the printout. */
export function renderLargest(page: PageResult, count = 6): string {
  return page.first_load.scripts
    .slice(0, count)
    .map(
      (script) =>
        `    ${(script.gzip_bytes / 1024).toFixed(1).padStart(6)} KB gzip  ${script.path}`,
    )
    .join('\n');
}
