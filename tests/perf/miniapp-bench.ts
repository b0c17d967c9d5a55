import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { writeJson } from './engine/report.ts';
import { buildMiniapp } from './miniapp/build.ts';
import { parseMiniappConfig, type MiniappBenchConfig } from './miniapp/config.ts';
import {
  buildChunks,
  buildReader,
  miniappFirstLoad,
  planFromManifest,
} from './miniapp/first-load.ts';
import {
  judge,
  opportunitiesOf,
  renderFiles,
  renderTable,
  summarize,
  type PageRuns,
} from './miniapp/report.ts';
import { buildFloor, buildPortal } from './web/build.ts';
import { firstLoadScripts, gzipBytes, kib } from './web/first-load.ts';
import {
  CHROME_FLAGS,
  CHROMIUM_PATH,
  runLighthouse,
  type LighthouseRun,
} from './web/lighthouse.ts';
import { medianMetrics } from './web/report.ts';
import { assertPortsFree, startStack, stackPorts, type RunningStack } from './web/stack.ts';
import { serveStatic, type StaticServer } from './web/static-server.ts';

/*
 * `npm run bench:miniapp`: Lighthouse (mobile, default simulated throttling) with Debian
 * Chromium on the Telegram mini-app's first screen (/telegram-app), beside bench:web's floor page
 * (an empty React 18 app), plus the gzip size of the JavaScript and CSS the app loads before its
 * first render. It builds the mini-app (its own MINIAPP_BUILD_DIR) and the portal (the web
 * server needs a build with WEB_SERVE=build), boots the stack with the launcher on a fresh
 * embedded database with NODE_ENV=development (so a plain browser gets a development launch:
 * signed launch data from /telegram-app/dev-launch and the dev-client chunk imitating Telegram),
 * runs every page `--runs` times interleaved, and writes bench-results/miniapp.json.
 * See tests/perf/README.md.
 *
 * Exit status: 0 whenever the benchmark ran, goals met or not; 1 when the harness failed.
 */

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORK_DIR = path.join(REPO_ROOT, '.data', 'miniapp-bench');
const BASE = '/telegram-app/';

const log = (line: string) => process.stdout.write(`${line}\n`);
const elapsed = (() => {
  const started = performance.now();
  return () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s`;
})();
const step = (line: string) => log(`[${elapsed()}] ${line}`);

interface Target {
  name: 'miniapp' | 'floor';
  label: string;
  url: string;
}

/** A page must answer 200 before anything is measured. */
async function fetchText(url: string): Promise<string> {
  const response = await fetch(url, {
    redirect: 'manual',
    headers: { 'accept-language': 'en-US,en;q=0.9' },
  });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}, not 200`);
  return response.text();
}

/** What a run shows of the development launch reaching the exchange screen. */
interface LaunchEvidence {
  dev_launch: boolean;
  telegram_auth: boolean;
  catalog_query: boolean;
  lcp_element: string | null;
}

function launchEvidence(
  run: LighthouseRun,
  urls: { web: string; auth: string; graphql: string },
): LaunchEvidence {
  const requested = (prefix: string) =>
    run.resources.some((resource) => resource.url.startsWith(prefix));
  const details = run.lhr.audits['largest-contentful-paint-element']?.details as
    | { items?: Array<{ items?: Array<{ node?: { snippet?: string; nodeLabel?: string } }> }> }
    | undefined;
  const node = details?.items?.[0]?.items?.[0]?.node;
  return {
    dev_launch: requested(`${urls.web}${BASE}dev-launch`),
    telegram_auth: requested(`${urls.auth}/telegram-auth`),
    catalog_query: requested(urls.graphql),
    lcp_element: node ? `${node.nodeLabel ?? ''} ${node.snippet ?? ''}`.trim() : null,
  };
}

async function measure(
  config: MiniappBenchConfig,
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
        `round ${round + 1} ${target.label}: score ${m.score}, FCP ${m.fcp_ms} ms, LCP ${m.lcp_ms} ms, TBT ${m.tbt_ms} ms, CLS ${m.cls}`,
      );
      if (config.keepReports) {
        const output = path.resolve(REPO_ROOT, config.output);
        await mkdir(path.dirname(output), { recursive: true });
        await writeFile(
          path.join(
            path.dirname(output),
            `${path.basename(output, '.json')}-${target.name}-${round + 1}.json`,
          ),
          JSON.stringify(run.lhr),
        );
      }
    }
  }
  return results;
}

const pageRuns = (target: Target, runs: LighthouseRun[]): PageRuns => ({
  label: target.label,
  url: target.url,
  runs: runs.map((run) => run.metrics),
  median: medianMetrics(runs.map((run) => run.metrics)),
});

const failedAudits = (runs: LighthouseRun[]): Record<string, string> =>
  Object.assign({}, ...runs.map((run) => run.failedAudits)) as Record<string, string>;

async function main(): Promise<number> {
  const config = parseMiniappConfig(process.argv.slice(2));
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`,
    );
  }
  const ports = stackPorts(config.portBase);
  await assertPortsFree(ports);
  const loadAtStart = os.loadavg().map((value) => Math.round(value * 100) / 100);

  // A folder per port base, so two runs on other ports do not rebuild under each other.
  const workDir = path.join(WORK_DIR, String(config.portBase));
  step('building the mini-app (its own MINIAPP_BUILD_DIR, with a Vite manifest)');
  const miniappDir = path.join(workDir, 'miniapp');
  const manifest = await buildMiniapp(REPO_ROOT, miniappDir);
  const plan = planFromManifest(manifest);
  step('building the portal (a copy of web/; the web server needs a build to serve the app)');
  const portalDir = await buildPortal(REPO_ROOT, path.join(workDir, 'web'));
  const floorDir = config.floor ? await buildFloor(REPO_ROOT, path.join(workDir, 'floor')) : null;

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
    stack = await startStack({
      repoRoot: REPO_ROOT,
      ports,
      buildDir: portalDir,
      name: 'miniapp-bench',
      env: {
        MINIAPP_BUILD_DIR: miniappDir,
        // Every Lighthouse run signs in again from the same address.
        AUTH_RATE_LIMIT_FACTOR: '100',
      },
    });
    if (floorDir) floor = await serveStatic(floorDir, ports.floor);
    const urls = {
      web: stack.webUrl,
      auth: `http://localhost:${ports.auth}`,
      graphql: `http://localhost:${ports.engine}/v1/graphql`,
    };

    const app: Target = {
      name: 'miniapp',
      label: 'mini-app /telegram-app',
      url: `${urls.web}/telegram-app`,
    };
    const targets: Target[] = [app];
    if (floor) targets.push({ name: 'floor', label: 'floor (React 18)', url: `${floor.url}/` });

    // The page and the development launch must answer; this also warms the server.
    let html = '';
    for (let i = 0; i < 5; i++) html = await fetchText(app.url);
    if (!html.includes('"devLaunch":true')) {
      throw new Error('the page does not have development launches on (window.__MINIAPP__)');
    }
    if (!(await fetchText(`${urls.web}${BASE}dev-launch`)).includes('tgWebAppData=')) {
      throw new Error(`${BASE}dev-launch gave no launch data`);
    }
    const floorHtml = floor ? await fetchText(`${floor.url}/`) : '';

    step(`Lighthouse ${config.runs}x on each of ${targets.length} pages, interleaved`);
    const results = await measure(config, targets);
    const appRuns = results.get(app)!;
    const evidence = appRuns.map((run) => launchEvidence(run, urls));
    const firstLoad = miniappFirstLoad({
      runs: appRuns,
      origin: urls.web,
      base: BASE,
      buildDir: miniappDir,
      plan,
      html,
    });
    const appPage = pageRuns(app, appRuns);

    let floorResult: { page: PageRuns; jsKbGzip: number; scripts: string[] } | null = null;
    if (floor && floorDir) {
      const target = targets.find((candidate) => candidate.name === 'floor')!;
      const read = buildReader(floorDir, '/');
      const scripts = firstLoadScripts(floorHtml, '/', (urlPath) => read(urlPath)?.toString());
      floorResult = {
        page: pageRuns(target, results.get(target)!),
        scripts: scripts.scripts,
        jsKbGzip: kib(
          scripts.scripts.reduce((sum, urlPath) => sum + gzipBytes(read(urlPath) ?? ''), 0),
        ),
      };
    }

    const summary = summarize(appPage, firstLoad, floorResult);
    const goals = judge(summary);
    const anyRun: LighthouseRun | undefined = appRuns[0];
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
        launch:
          'a development launch: the page is opened outside Telegram with NODE_ENV=development, so it fetches /telegram-app/dev-launch (signed launch data) and the dev-client chunk (a stand-in Telegram client), signs in through the auth service and loads the catalog over GraphQL. A launch inside Telegram does the same without those two requests.',
        first_load:
          'same-origin scripts and stylesheets whose request started before the first contentful paint Chromium observed, in at least half the runs (the page is blank until the first render); the dev-client chunk is counted apart; gzip (zlib level 6) of the built files, KB = 1,024 bytes. Cross-checked against the Vite manifest: the entry with its static imports and CSS, plus the English resources chunk.',
        build:
          'npm run build -w miniapp -- --manifest with MINIAPP_BUILD_DIR and NODE_ENV=production; the portal is react-router build of a copy of web/ (WEB_BUILD_DIR); web/server/main.ts serves both with compression',
        floor: config.floor
          ? 'tests/perf/web/floor: createRoot(...).render(<main><h1/><p/></main>) with React 18, built by Vite, served with the same compression'
          : null,
        goals: { lighthouse_score: '>= 95', first_load_js_kb_gzip: '<= 150' },
      },
      miniapp: {
        url: app.url,
        runs: appPage.runs,
        median: appPage.median,
        launch: evidence,
        first_load: firstLoad,
        failed_audits: failedAudits(appRuns),
        opportunities: opportunitiesOf(appRuns),
        build_chunks: buildChunks(plan, miniappDir, BASE),
      },
      floor: floorResult
        ? {
            url: floorResult.page.url,
            runs: floorResult.page.runs,
            median: floorResult.page.median,
            first_load_js_kb_gzip: floorResult.jsKbGzip,
            scripts: floorResult.scripts,
          }
        : null,
      notes: [
        'Each Lighthouse figure is the median of the runs, taken figure by figure; the score is the median score.',
        'A development launch is a slight superset of a real one inside Telegram: one more request (/telegram-app/dev-launch) and the dev-client chunk (dev_client_kb_gzip, not in first_load_js_kb_gzip).',
        'Simulated throttling estimates load times from an unthrottled load on this machine: when other work keeps the CPU busy, TBT and the estimates grow. Compare with the floor page measured in the same rounds.',
      ],
    };

    log('');
    log(renderTable(appPage, firstLoad, floorResult));
    log('');
    log('mini-app: files before the first render (largest first)');
    log(renderFiles(firstLoad));
    log('');
    log('mini-app: largest chunks of the build');
    for (const chunk of report.miniapp.build_chunks.slice(0, 8)) {
      log(
        `    ${(chunk.gzip_bytes / 1024).toFixed(1).padStart(6)} KB gzip  ${chunk.role.padEnd(10)}  ${chunk.path}`,
      );
    }
    if (!firstLoad.manifest.matches) {
      log('');
      log(
        `  observed and manifest differ: only observed ${JSON.stringify(firstLoad.manifest.only_observed)}, only in the manifest plan ${JSON.stringify(firstLoad.manifest.only_expected)}`,
      );
    }
    if (firstLoad.after_fcp.length > 0) {
      log(`  loaded after the first paint: ${firstLoad.after_fcp.join(', ')}`);
    }
    const incomplete = evidence.filter(
      (run) => !run.dev_launch || !run.telegram_auth || !run.catalog_query,
    );
    if (incomplete.length > 0) {
      log(
        `  WARNING: ${incomplete.length} run(s) did not show the whole development launch: ${JSON.stringify(incomplete)}`,
      );
    }
    const failed = Object.entries(report.miniapp.failed_audits);
    if (failed.length > 0) {
      log(`  audits below 0.9: ${failed.map(([id, value]) => `${id} (${value})`).join(', ')}`);
    }
    const opportunities = Object.entries(report.miniapp.opportunities);
    if (opportunities.length > 0) {
      log(
        `  opportunities: ${opportunities
          .map(
            ([id, found]) =>
              `${id} (${[found.display, ...Object.entries(found.metric_savings).map(([metric, ms]) => `${metric} -${ms} ms`)].filter(Boolean).join(', ')}; ${found.runs}/${appRuns.length} runs)`,
          )
          .join('; ')}`,
      );
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
      `bench:miniapp failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
