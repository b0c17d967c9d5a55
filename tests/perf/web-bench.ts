import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { writeJson } from './engine/report.ts';
import { buildFloor, buildPortal } from './web/build.ts';
import { parseWebConfig, type WebBenchConfig } from './web/config.ts';
import { documentScripts, firstLoadScripts, gzipBytes, kib } from './web/first-load.ts';
import {
  CHROME_FLAGS,
  CHROMIUM_PATH,
  runLighthouse,
  type LighthouseRun,
} from './web/lighthouse.ts';
import {
  GOALS,
  judge,
  medianMetrics,
  PAGES,
  renderLargest,
  renderTable,
  summarize,
  type FirstLoad,
  type PageDefinition,
  type PageResult,
} from './web/report.ts';
import { assertPortsFree, startStack, stackPorts, type RunningStack } from './web/stack.ts';
import { serveStatic, type StaticServer } from './web/static-server.ts';

/*
 * `npm run bench:web`: Lighthouse (mobile, default simulated throttling) with Debian Chromium on
 * the portal's home, a product page and the order form, beside a floor page (an empty React 18
 * app built by Vite in the same run, shared/PERFORMANCE.md G8), plus the gzip size of the
 * JavaScript each page loads first. It builds the portal (a copy of web/, so a concurrent build
 * cannot swap files under it), boots the stack with the launcher on a fresh embedded database,
 * runs every page `--runs` times interleaved, and writes bench-results/web.json.
 * See tests/perf/README.md.
 *
 * Exit status: 0 whenever the benchmark ran, goals met or not; 1 when the harness failed.
 */

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORK_DIR = path.join(REPO_ROOT, '.data', 'web-bench');

const log = (line: string) => process.stdout.write(`${line}\n`);
const elapsed = (() => {
  const started = performance.now();
  return () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s`;
})();
const step = (line: string) => log(`[${elapsed()}] ${line}`);

interface Target {
  page: PageDefinition;
  url: string;
  /** Folder that URL paths map into, to read and gzip the scripts. */
  clientRoot: string;
}

/** Reads a same-origin script of a page from the build on disk. */
function reader(clientRoot: string) {
  return (urlPath: string): string | undefined => {
    if (!urlPath.startsWith('/')) return undefined;
    const file = path.join(clientRoot, path.normalize(urlPath));
    if (!file.startsWith(clientRoot) || !existsSync(file)) return undefined;
    return readFileSync(file, 'utf8');
  };
}

/** A page must answer 200 with HTML before anything is measured. */
async function fetchDocument(url: string): Promise<string> {
  const response = await fetch(url, {
    redirect: 'manual',
    headers: { 'accept-language': 'en-US,en;q=0.9' },
  });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}, not 200`);
  return response.text();
}

function firstLoadOf(target: Target, html: string, runs: LighthouseRun[]): FirstLoad {
  const read = reader(target.clientRoot);
  const origin = new URL(target.url).origin;
  const declared = firstLoadScripts(html, new URL(target.url).pathname, read);
  const loadedScripts = runs.flatMap((run) =>
    run.resources.filter(
      (resource) => resource.resourceType === 'Script' && resource.url.startsWith(origin),
    ),
  );
  const loadedPaths = new Set(loadedScripts.map((resource) => new URL(resource.url).pathname));
  const afterMount = [...loadedPaths].filter((script) => !declared.scripts.includes(script));
  const all = [...declared.scripts, ...afterMount];
  const scripts = all
    .map((script) => {
      const code = read(script);
      return code === undefined
        ? undefined
        : { path: script, bytes: Buffer.byteLength(code), gzip_bytes: gzipBytes(code) };
    })
    .filter((script) => script !== undefined)
    .sort((a, b) => b.gzip_bytes - a.gzip_bytes);
  const firstRun = runs[0]?.resources.filter(
    (resource) => resource.resourceType === 'Script' && resource.url.startsWith(origin),
  );
  const inline = documentScripts(html).inlineScripts.join('\n');
  return {
    scripts,
    kb_gzip: kib(scripts.reduce((sum, script) => sum + script.gzip_bytes, 0)),
    kb_raw: kib(scripts.reduce((sum, script) => sum + script.bytes, 0)),
    declared_count: declared.scripts.length,
    loaded_after_mount: afterMount,
    not_preloaded: declared.notPreloaded,
    inline_kb_gzip: inline ? kib(gzipBytes(inline)) : 0,
    transfer_kb: firstRun
      ? kib(firstRun.reduce((sum, resource) => sum + resource.transferSize, 0))
      : null,
  };
}

async function measure(
  config: WebBenchConfig,
  targets: Target[],
): Promise<Map<Target, LighthouseRun[]>> {
  const results = new Map<Target, LighthouseRun[]>(targets.map((target) => [target, []]));
  for (let round = 0; round < config.runs; round++) {
    // Interleaved, the start rotating each round, so drift in the machine's load spreads evenly.
    const order = targets.map((_, index) => targets[(index + round) % targets.length]!);
    for (const target of order) {
      const run = await runLighthouse(target.url);
      results.get(target)!.push(run);
      const m = run.metrics;
      step(
        `round ${round + 1} ${target.page.label}: score ${m.score}, FCP ${m.fcp_ms} ms, LCP ${m.lcp_ms} ms, TBT ${m.tbt_ms} ms, CLS ${m.cls}`,
      );
      if (config.keepReports) {
        const output = path.resolve(REPO_ROOT, config.output);
        await mkdir(path.dirname(output), { recursive: true });
        await writeFile(
          path.join(
            path.dirname(output),
            `${path.basename(output, '.json')}-${target.page.name}-${round + 1}.json`,
          ),
          JSON.stringify(run.lhr),
        );
      }
    }
  }
  return results;
}

async function main(): Promise<number> {
  const config = parseWebConfig(process.argv.slice(2));
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`,
    );
  }
  const ports = stackPorts(config.portBase);
  await assertPortsFree(ports);
  const loadAtStart = os.loadavg().map((value) => Math.round(value * 100) / 100);

  step('building the portal (a copy of web/, NODE_ENV=production) and the floor page');
  // A folder per port base, so two runs on other ports do not rebuild under each other.
  const workDir = path.join(WORK_DIR, String(config.portBase));
  const buildDir = await buildPortal(REPO_ROOT, path.join(workDir, 'web'));
  const floorDir = await buildFloor(REPO_ROOT, path.join(workDir, 'floor'));

  step(`starting the stack (launcher, fresh embedded database; web on ${ports.web})`);
  let stack: RunningStack | undefined;
  let floor: StaticServer | undefined;
  const stopAll = async () => {
    await floor?.close();
    await stack?.stop();
  };
  const interrupted = () => void stopAll().finally(() => process.exit(1));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    stack = await startStack({ repoRoot: REPO_ROOT, ports, buildDir });
    floor = await serveStatic(floorDir, ports.floor);

    const targets: Target[] = PAGES.map((page) => ({
      page,
      url: `${page.floor ? floor!.url : stack!.webUrl}${page.path}`,
      clientRoot: page.floor ? floorDir : path.join(buildDir, 'client'),
    }));
    const documents = new Map<Target, string>();
    for (const target of targets) {
      // Also warms the server (the first render of a route compiles its code paths).
      for (let i = 0; i < 5; i++) documents.set(target, await fetchDocument(target.url));
    }

    step(`Lighthouse ${config.runs}x on each of ${targets.length} pages, interleaved`);
    const results = await measure(config, targets);

    const pages: PageResult[] = targets.map((target) => {
      const runs = results.get(target)!;
      const failed: Record<string, string> = {};
      for (const run of runs) Object.assign(failed, run.failedAudits);
      return {
        name: target.page.name,
        label: target.page.label,
        url: target.url,
        runs: runs.map((run) => run.metrics),
        median: medianMetrics(runs.map((run) => run.metrics)),
        first_load: firstLoadOf(target, documents.get(target)!, runs),
        failed_audits: failed,
      };
    });
    const summary = summarize(pages);
    const goals = judge(summary);
    const anyRun = results.values().next().value?.[0];

    const report = {
      summary,
      goals,
      generated_at: new Date().toISOString(),
      environment: {
        node: process.version,
        platform: `${process.platform} ${os.release()} ${process.arch}`,
        cpus: os.cpus().length,
        cpu_model: os.cpus()[0]?.model ?? null,
        // Lighthouse's simulation scales the CPU time it observes: other work inflates TBT.
        load_average_start: loadAtStart,
        load_average_end: os.loadavg().map((value) => Math.round(value * 100) / 100),
        lighthouse: anyRun?.lighthouseVersion ?? null,
        chromium: anyRun?.chromeVersion ?? null,
        chromium_path: CHROMIUM_PATH,
        chrome_flags: CHROME_FLAGS,
      },
      settings: {
        runs_per_page: config.runs,
        schedule: 'interleaved: every page once per round, the first page rotating each round',
        lighthouse:
          'default config (mobile: Moto G Power screen, simulated Slow 4G 150 ms RTT / 1.6 Mbps, 4x CPU slowdown), performance category only, a fresh Chromium per run',
        first_load_js:
          'the scripts the server-rendered HTML declares (modulepreload, script src, imports of inline module scripts) closed over static imports, plus same-origin scripts Lighthouse saw load without interaction; gzip (zlib level 6) of the built files, KB = 1,024 bytes',
        build:
          'react-router build of a copy of web/ with NODE_ENV=production, served by web/server/main.ts (WEB_BUILD_DIR) with compression',
        floor:
          'tests/perf/web/floor: createRoot(...).render(<main><h1/><p/></main>) with React 18, built by Vite, served with the same compression',
        goals: GOALS,
      },
      pages,
      notes: [
        'Each Lighthouse figure is the median of the runs, taken figure by figure; the score is the median score.',
        'The portal serves the production build from a launcher stack on a fresh embedded database, with NODE_ENV=development for the services (as the end-to-end suite runs them).',
        'Simulated throttling estimates load times from an unthrottled load on this machine: when other work keeps the CPU busy, the paint is observed later, more scripts count as render-blocking and FCP/LCP grow; TBT scales with the CPU time observed. Compare with the floor page measured in the same rounds.',
      ],
    };

    log('');
    log(renderTable(pages));
    for (const page of pages) {
      log('');
      log(`${page.label}: largest first-load scripts`);
      log(renderLargest(page));
      if (page.first_load.not_preloaded.length > 0) {
        log(`  not modulepreloaded: ${page.first_load.not_preloaded.join(', ')}`);
      }
      const failed = Object.entries(page.failed_audits);
      if (failed.length > 0) {
        log(`  audits below 0.9: ${failed.map(([id, value]) => `${id} (${value})`).join(', ')}`);
      }
    }
    log('');
    for (const goal of goals) {
      log(`${goal.met ? 'met   ' : 'MISSED'} ${goal.goal}: ${goal.value} (goal ${goal.target})`);
    }
    log('');
    log(`summary: ${JSON.stringify(summary)}`);
    const written = await writeJson(path.resolve(REPO_ROOT, config.output), report);
    step(`wrote ${path.relative(REPO_ROOT, written)}`);
    return 0;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await stopAll();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench:web failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
