import { launch } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';

/*
 * One Lighthouse navigation with its default configuration: mobile (Moto G Power screen),
 * simulated throttling (Slow 4G: 150 ms RTT, 1.6 Mbps down; 4x CPU slowdown), performance only.
 * Each run gets a Chromium of its own (a fresh profile, so a cold cache), with the flags of
 * shared/PERFORMANCE.md G8.
 */

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface LighthouseMetrics {
  /** Performance category score, 0-100. */
  score: number;
  fcp_ms: number;
  lcp_ms: number;
  tbt_ms: number;
  cls: number;
  si_ms: number;
  tti_ms: number;
  ttfb_ms: number;
}

/** A request of the page load, as Lighthouse recorded it. */
export interface LoadedResource {
  url: string;
  resourceType: string;
  priority: string;
  /** Bytes on the wire (compressed as served). */
  transferSize: number;
  /** Decoded bytes. */
  resourceSize: number;
  startMs: number;
  endMs: number;
}

export interface LighthouseRun {
  metrics: LighthouseMetrics;
  resources: LoadedResource[];
  /** Opportunities and diagnostics that did not pass (id: display value), to explain a score. */
  failedAudits: Record<string, string>;
  lighthouseVersion: string;
  chromeVersion: string;
  warnings: string[];
  /** The whole Lighthouse result (kept on disk only with --keep-reports). */
  lhr: Result;
}

const numeric = (lhr: Result, id: string): number => {
  const value = lhr.audits[id]?.numericValue;
  if (typeof value !== 'number') throw new Error(`Lighthouse gave no value for ${id}`);
  return value;
};

/** The figures the benchmark keeps from a Lighthouse result. */
export function metricsOf(lhr: Result): LighthouseMetrics {
  const score = lhr.categories['performance']?.score;
  if (typeof score !== 'number') {
    throw new Error(`no performance score: ${lhr.runtimeError?.message ?? 'unknown error'}`);
  }
  return {
    score: Math.round(score * 100),
    fcp_ms: Math.round(numeric(lhr, 'first-contentful-paint')),
    lcp_ms: Math.round(numeric(lhr, 'largest-contentful-paint')),
    tbt_ms: Math.round(numeric(lhr, 'total-blocking-time')),
    cls: Math.round(numeric(lhr, 'cumulative-layout-shift') * 1000) / 1000,
    si_ms: Math.round(numeric(lhr, 'speed-index')),
    tti_ms: Math.round(numeric(lhr, 'interactive')),
    ttfb_ms: Math.round(numeric(lhr, 'server-response-time')),
  };
}

interface NetworkItem {
  url?: unknown;
  resourceType?: unknown;
  priority?: unknown;
  transferSize?: unknown;
  resourceSize?: unknown;
  networkRequestTime?: unknown;
  networkEndTime?: unknown;
}

/** The `network-requests` audit's rows. */
export function resourcesOf(lhr: Result): LoadedResource[] {
  const details = lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined;
  const num = (value: unknown) => (typeof value === 'number' ? value : 0);
  return (details?.items ?? []).map((item) => ({
    url: String(item.url),
    resourceType: String(item.resourceType),
    priority: String(item.priority),
    transferSize: num(item.transferSize),
    resourceSize: num(item.resourceSize),
    startMs: Math.round(num(item.networkRequestTime)),
    endMs: Math.round(num(item.networkEndTime)),
  }));
}

/**
 * Audits below 0.9 that are not informative, with their display value. The `*-insight` audits
 * (Lighthouse 12's trace insights) repeat the classic ones, without a value, and are left out.
 */
export function failedAuditsOf(lhr: Result): Record<string, string> {
  const failed: Record<string, string> = {};
  for (const [id, audit] of Object.entries(lhr.audits)) {
    if (audit.score === null || audit.score >= 0.9 || id.endsWith('-insight')) continue;
    if (audit.scoreDisplayMode !== 'numeric' && audit.scoreDisplayMode !== 'binary') continue;
    failed[id] = audit.displayValue ?? String(audit.score);
  }
  return failed;
}

/** Runs Lighthouse (mobile, default config) on `url` in a Chromium of its own. */
export async function runLighthouse(url: string): Promise<LighthouseRun> {
  const chrome = await launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    return {
      metrics: metricsOf(lhr),
      resources: resourcesOf(lhr),
      failedAudits: failedAuditsOf(lhr),
      lighthouseVersion: lhr.lighthouseVersion,
      chromeVersion: lhr.environment.hostUserAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? 'unknown',
      warnings: lhr.runWarnings,
      lhr,
    };
  } finally {
    chrome.kill();
  }
}
