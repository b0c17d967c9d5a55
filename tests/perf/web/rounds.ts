import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { machineEnvironment, REPO_ROOT } from '../harness.ts';
import type { LighthouseBenchConfig } from './config.ts';
import { CHROME_FLAGS, CHROMIUM_PATH, runLighthouse, type LighthouseRun } from './lighthouse.ts';

/*
 * How the Lighthouse benches (bench:web, bench:miniapp) measure: every page answers first, then
 * Lighthouse runs on each page once per round, interleaved; and how their reports say so.
 */

export function assertChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`,
    );
  }
}

/** A page's HTML; it must answer 200 before anything is measured. */
export async function fetchPage(url: string): Promise<string> {
  const response = await fetch(url, {
    redirect: 'manual',
    headers: { 'accept-language': 'en-US,en;q=0.9' },
  });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}, not 200`);
  return response.text();
}

/**
 * `config.runs` rounds of Lighthouse over `targets`, each round starting one page further, with
 * progress lines (`page` names and labels a target); with --keep-reports, every run's
 * Lighthouse JSON beside the report (<report>-<page name>-<round>.json).
 */
export async function measureRounds<T extends { url: string }>(
  targets: T[],
  page: (target: T) => { name: string; label: string },
  config: LighthouseBenchConfig,
  step: (line: string) => void,
): Promise<Map<T, LighthouseRun[]>> {
  step(`Lighthouse ${config.runs}x on each of ${targets.length} pages, interleaved`);
  const results = new Map<T, LighthouseRun[]>(targets.map((target) => [target, []]));
  for (let round = 0; round < config.runs; round++) {
    // Interleaved, the start rotating each round, so drift in the machine's load spreads evenly.
    const order = targets.map((_, index) => targets[(index + round) % targets.length]!);
    for (const target of order) {
      const run = await runLighthouse(target.url);
      results.get(target)!.push(run);
      const m = run.metrics;
      step(
        `round ${round + 1} ${page(target).label}: score ${m.score}, FCP ${m.fcp_ms} ms, LCP ${m.lcp_ms} ms, TBT ${m.tbt_ms} ms, CLS ${m.cls}`,
      );
      if (config.keepReports) {
        const output = path.resolve(REPO_ROOT, config.output);
        await mkdir(path.dirname(output), { recursive: true });
        await writeFile(
          path.join(
            path.dirname(output),
            `${path.basename(output, '.json')}-${page(target).name}-${round + 1}.json`,
          ),
          JSON.stringify(run.lhr),
        );
      }
    }
  }
  return results;
}

/** Audits that failed in at least one run: id -> display value of the last such run. */
export const failedAudits = (runs: LighthouseRun[]): Record<string, string> =>
  Object.assign({}, ...runs.map((run) => run.failedAudits)) as Record<string, string>;

/** The report's `environment`: the machine, its load before and after, Lighthouse and Chromium. */
export function lighthouseEnvironment(loadAtStart: number[], run: LighthouseRun | undefined) {
  return {
    ...machineEnvironment(loadAtStart),
    lighthouse: run?.lighthouseVersion ?? null,
    chromium: run?.chromeVersion ?? null,
    chromium_path: CHROMIUM_PATH,
    chrome_flags: CHROME_FLAGS,
  };
}

/** The first `settings` of the report: the runs and how they were made. */
export function lighthouseSettings(runs: number) {
  return {
    runs_per_page: runs,
    schedule: 'interleaved: every page once per round, the first page rotating each round',
    lighthouse:
      'default config (mobile: Moto G Power screen, simulated Slow 4G 150 ms RTT / 1.6 Mbps, 4x CPU slowdown), performance category only, a fresh Chromium per run',
  };
}

/** The first of the report's `notes`. */
export const MEDIANS_NOTE =
  'Each Lighthouse figure is the median of the runs, taken figure by figure; the score is the median score.';
