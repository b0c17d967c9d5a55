import path from 'node:path';

import { finishReport, loadAverage, REPO_ROOT, runBench, stepLogger } from './harness.ts';
import { readManifest } from './miniapp/build.ts';
import { parseMiniappConfig } from './miniapp/config.ts';
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
import { buildFloor } from './web/build.ts';
import { firstLoadScripts, gzipBytes, kib } from './web/first-load.ts';
import type { LighthouseRun } from './web/lighthouse.ts';
import { medianMetrics, renderGoals } from './web/report.ts';
import {
  assertChromium,
  failedAudits,
  fetchPage,
  lighthouseEnvironment,
  lighthouseSettings,
  measureRounds,
  MEDIANS_NOTE,
} from './web/rounds.ts';
import {
  assertPortsFree,
  benchBuildDirs,
  stackPorts,
  withStack,
  type StackOptions,
} from './web/stack.ts';

/*
 * `npm run bench:miniapp`: Lighthouse (mobile, default simulated throttling) with Debian
 * Chromium on the Telegram mini-app's first screen (/telegram-app), beside bench:web's floor page
 * (an empty React 18 app), plus the gzip size of the JavaScript and CSS the app loads before its
 * first render. It boots the stack with the launcher (`npm start`'s script), which builds the
 * mini-app and the portal for production as `npm start` does (into the benchmark's own folders),
 * on a fresh embedded database with NODE_ENV=development (so a plain browser gets a development launch:
 * signed launch data from /telegram-app/dev-launch and the dev-client chunk imitating Telegram),
 * runs every page `--runs` times interleaved, and writes bench-results/miniapp.json.
 * See tests/perf/README.md.
 *
 * Exit status: 0 whenever the benchmark ran, goals met or not; 1 when the harness failed.
 */

const WORK_DIR = path.join(REPO_ROOT, '.data', 'miniapp-bench');
const BASE = '/telegram-app/';

const { log, step } = stepLogger();

interface Target {
  name: 'miniapp' | 'floor';
  label: string;
  url: string;
}

/**
 * What a run shows of the development launch reaching the exchange screen: the page carries
 * its signed launch data (web/server/miniapp.ts, checked once below), so a run shows it by
 * signing in with it and asking for the catalog.
 */
interface LaunchEvidence {
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
    telegram_auth: requested(`${urls.auth}/telegram-auth`),
    catalog_query: requested(urls.graphql),
    lcp_element: node ? `${node.nodeLabel ?? ''} ${node.snippet ?? ''}`.trim() : null,
  };
}

const pageRuns = (target: Target, runs: LighthouseRun[]): PageRuns => ({
  label: target.label,
  url: target.url,
  runs: runs.map((run) => run.metrics),
  median: medianMetrics(runs.map((run) => run.metrics)),
});

async function main(): Promise<number> {
  const config = parseMiniappConfig(process.argv.slice(2));
  assertChromium();
  const ports = stackPorts(config.portBase);
  await assertPortsFree(ports);
  const loadAtStart = loadAverage();

  // A folder per port base, so two runs on other ports do not rebuild under each other.
  const workDir = path.join(WORK_DIR, String(config.portBase));
  const floorDir = config.floor ? await buildFloor(REPO_ROOT, path.join(workDir, 'floor')) : null;

  step(
    `starting the stack as npm start does (production builds, fresh embedded database; web on ${ports.web})`,
  );
  const buildDirs = benchBuildDirs(REPO_ROOT, config.portBase);
  const miniappDir = buildDirs.miniapp;
  const stackOptions: StackOptions = {
    repoRoot: REPO_ROOT,
    ports,
    buildDirs,
    name: 'miniapp-bench',
    env: {
      // Every Lighthouse run signs in again from the same address.
      AUTH_RATE_LIMIT_FACTOR: '100',
    },
  };
  return withStack(stackOptions, floorDir, async (stack, floor) => {
    // The launcher's build keeps Vite's manifest (miniapp/vite.config.ts: the server reads it).
    const plan = planFromManifest(await readManifest(miniappDir));
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
    for (let i = 0; i < 5; i++) html = await fetchPage(app.url);
    if (!html.includes('"devLaunch":true')) {
      throw new Error('the page does not have development launches on (window.__MINIAPP__)');
    }
    if (!html.includes('"devLaunchParams"')) {
      throw new Error(
        'the page carries no signed launch data (window.__MINIAPP__.devLaunchParams)',
      );
    }
    if (!(await fetchPage(`${urls.web}${BASE}dev-launch`)).includes('tgWebAppData=')) {
      throw new Error(`${BASE}dev-launch gave no launch data`);
    }
    const floorHtml = floor ? await fetchPage(`${floor.url}/`) : '';

    const results = await measureRounds(targets, (target) => target, config, step);
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
      environment: lighthouseEnvironment(loadAtStart, anyRun),
      settings: {
        ...lighthouseSettings(config.runs),
        launch:
          'a development launch: the page is opened outside Telegram with NODE_ENV=development, so it fetches /telegram-app/dev-launch (signed launch data) and the dev-client chunk (a stand-in Telegram client), signs in through the auth service and loads the catalog over GraphQL. A launch inside Telegram does the same without those two requests.',
        first_load:
          'same-origin scripts and stylesheets whose request started before the first contentful paint Chromium observed, in at least half the runs (the page is blank until the first render); the dev-client chunk is counted apart; gzip (zlib level 6) of the built files, KB = 1,024 bytes. Cross-checked against the Vite manifest: the entry with its static imports and CSS, plus the English resources chunk.',
        build:
          "npm start's production builds (scripts/launcher/builds.ts: npm run build -w miniapp and -w web, NODE_ENV=production) in the benchmark's own MINIAPP_BUILD_DIR and WEB_BUILD_DIR; web/server/main.ts serves both with compression",
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
        MEDIANS_NOTE,
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
    const incomplete = evidence.filter((run) => !run.telegram_auth || !run.catalog_query);
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
    log(renderGoals(goals));
    await finishReport({ log, step }, config.output, report);
    return 0;
  });
}

runBench('bench:miniapp', main);
