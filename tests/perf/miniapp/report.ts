import type { LighthouseMetrics, LighthouseRun } from '../web/lighthouse.ts';
import { alignTable, atLeast, atMost, type GoalResult } from '../web/report.ts';
import type { MiniappFirstLoad } from './first-load.ts';

/* The printed table, the goals and the `summary` of bench-results/miniapp.json. */

export const GOALS = {
  /** Lighthouse mobile performance score of /telegram-app (median of the runs). */
  lighthouse_score: 95,
  /** JavaScript loaded before the first render, KB (1,024 bytes) gzip, without the dev-client. */
  first_load_js_kb_gzip: 150,
} as const;

export interface PageRuns {
  label: string;
  url: string;
  runs: LighthouseMetrics[];
  median: LighthouseMetrics;
}

export interface MiniappSummary {
  lighthouse_score: number;
  first_load_js_kb_gzip: number;
  first_load_css_kb_gzip: number;
  [key: string]: number | boolean | null;
}

export function summarize(
  app: PageRuns,
  firstLoad: MiniappFirstLoad,
  floor: { page: PageRuns; jsKbGzip: number } | null,
): MiniappSummary {
  const summary: MiniappSummary = {
    lighthouse_score: app.median.score,
    first_load_js_kb_gzip: firstLoad.js_kb_gzip,
    first_load_css_kb_gzip: firstLoad.css_kb_gzip,
    first_load_js_kb_raw: firstLoad.js_kb_raw,
    first_load_css_kb_raw: firstLoad.css_kb_raw,
    first_load_scripts: firstLoad.js.length,
    first_load_transfer_kb: firstLoad.transfer_kb,
    dev_client_kb_gzip: firstLoad.dev_client_kb_gzip,
    first_load_js_with_dev_client_kb_gzip: firstLoad.js_with_dev_client_kb_gzip,
    manifest_first_load_js_kb_gzip: firstLoad.manifest.js_kb_gzip,
    manifest_matches_observed: firstLoad.manifest.matches,
    fcp_ms: app.median.fcp_ms,
    lcp_ms: app.median.lcp_ms,
    tbt_ms: app.median.tbt_ms,
    cls: app.median.cls,
    si_ms: app.median.si_ms,
    tti_ms: app.median.tti_ms,
  };
  if (floor) {
    summary['floor_score'] = floor.page.median.score;
    summary['floor_first_load_js_kb_gzip'] = floor.jsKbGzip;
    summary['floor_fcp_ms'] = floor.page.median.fcp_ms;
    summary['floor_lcp_ms'] = floor.page.median.lcp_ms;
  }
  return summary;
}

export function judge(summary: MiniappSummary): GoalResult[] {
  return [
    atLeast(
      'Lighthouse mobile performance of /telegram-app (median of runs)',
      summary.lighthouse_score,
      GOALS.lighthouse_score,
    ),
    atMost(
      'first-load JS of /telegram-app, KB gzip (without the dev-client)',
      summary.first_load_js_kb_gzip,
      GOALS.first_load_js_kb_gzip,
    ),
  ];
}

/** The mini-app (and the floor) side by side, with the goal beside its figure. */
export function renderTable(
  app: PageRuns,
  firstLoad: MiniappFirstLoad,
  floor: { page: PageRuns; jsKbGzip: number } | null,
): string {
  const pages = floor ? [app, floor.page] : [app];
  const row = (label: string, cell: (page: PageRuns) => string, goal = ''): string[] => [
    label,
    ...pages.map(cell),
    goal,
  ];
  const appOnly =
    (value: string) =>
    (page: PageRuns): string =>
      page === app ? value : '';
  const fixed = (value: number) => value.toFixed(1);
  const body = [
    row('performance score', (page) => String(page.median.score), `>= ${GOALS.lighthouse_score}`),
    row('  runs', (page) => page.runs.map((run) => run.score).join(' / ')),
    row('FCP (ms)', (page) => String(page.median.fcp_ms)),
    row('LCP (ms)', (page) => String(page.median.lcp_ms)),
    row('TBT (ms)', (page) => String(page.median.tbt_ms)),
    row('CLS', (page) => page.median.cls.toFixed(3)),
    row('Speed Index (ms)', (page) => String(page.median.si_ms)),
    row('TTI (ms)', (page) => String(page.median.tti_ms)),
    row(
      'first-load JS (KB gzip)',
      (page) => (page === app ? fixed(firstLoad.js_kb_gzip) : fixed(floor?.jsKbGzip ?? NaN)),
      `<= ${GOALS.first_load_js_kb_gzip}`,
    ),
    row('  scripts', appOnly(String(firstLoad.js.length))),
    row('  raw (KB)', appOnly(fixed(firstLoad.js_kb_raw))),
    row('  manifest cross-check (KB gzip)', appOnly(fixed(firstLoad.manifest.js_kb_gzip))),
    row('  + dev-client (KB gzip)', appOnly(fixed(firstLoad.dev_client_kb_gzip))),
    row('first-load CSS (KB gzip)', appOnly(fixed(firstLoad.css_kb_gzip))),
    row('  raw (KB)', appOnly(fixed(firstLoad.css_kb_raw))),
    row('JS + CSS on the wire (KB)', appOnly(fixed(firstLoad.transfer_kb))),
  ];
  return alignTable(['', ...pages.map((page) => page.label), 'goal'], body);
}

/** The first render's files, largest first, with their role. */
export function renderFiles(firstLoad: MiniappFirstLoad): string {
  return [...firstLoad.js, ...firstLoad.dev_client, ...firstLoad.css]
    .map(
      (asset) =>
        `    ${(asset.gzip_bytes / 1024).toFixed(1).padStart(6)} KB gzip  ${asset.role.padEnd(10)}  ${asset.path}`,
    )
    .join('\n');
}

export interface Opportunity {
  /** Lighthouse's estimate, from the last run that flagged it ("Est savings of 24 KiB"). */
  display: string;
  /** Estimated savings per metric in ms, from that run (Lighthouse 12's `metricSavings`). */
  metric_savings: Record<string, number>;
  /** How many runs flagged it. */
  runs: number;
}

/**
 * Lighthouse's opportunities that estimate a saving (Lighthouse 12 gives them no numeric
 * score, so bench:web's "audits below 0.9" leaves them out): what would move FCP and LCP.
 */
export function opportunitiesOf(runs: LighthouseRun[]): Record<string, Opportunity> {
  const found: Record<string, Opportunity> = {};
  for (const run of runs) {
    for (const [id, audit] of Object.entries(run.lhr.audits)) {
      const details = audit.details as
        { type?: string; overallSavingsMs?: number; overallSavingsBytes?: number } | undefined;
      if (details?.type !== 'opportunity' || audit.score === null || audit.score >= 0.9) continue;
      if (!details.overallSavingsMs && !details.overallSavingsBytes) continue;
      found[id] = {
        display: audit.displayValue ?? '',
        metric_savings: Object.fromEntries(
          Object.entries(audit.metricSavings ?? {}).filter(
            (entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] > 0,
          ),
        ),
        runs: (found[id]?.runs ?? 0) + 1,
      };
    }
  }
  return found;
}
