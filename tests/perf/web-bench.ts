import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { finishReport, loadAverage, REPO_ROOT, runBench, stepLogger } from './harness.ts';
import { buildFloor } from './web/build.ts';
import { parseWebConfig } from './web/config.ts';
import { documentScripts, firstLoadScripts, gzipBytes, kib } from './web/first-load.ts';
import type { LighthouseRun } from './web/lighthouse.ts';
import {
  GOALS,
  judge,
  medianMetrics,
  PAGES,
  renderGoals,
  renderLargest,
  renderTable,
  summarize,
  type FirstLoad,
  type PageDefinition,
  type PageResult,
} from './web/report.ts';
import {
  assertChromium,
  failedAudits,
  fetchPage,
  lighthouseEnvironment,
  lighthouseSettings,
  measureRounds,
  MEDIANS_NOTE,
} from './web/rounds.ts';
import { assertPortsFree, benchBuildDirs, stackPorts, withStack } from './web/stack.ts';

/*
 * `npm run bench:web`: Lighthouse (mobile, default simulated throttling) with Debian Chromium on
 * the portal's home, a product page and the order form, beside a floor page (an empty React 18
 * app built by Vite in the same run, shared/PERFORMANCE.md G8), plus the gzip size of the
 * JavaScript each page loads first. It boots the stack with the launcher (`npm start`'s script)
 * on a fresh embedded database, which builds the portal for production as `npm start` does (into
 * the benchmark's own folder), runs every page `--runs` times interleaved, and writes
 * bench-results/web.json.
 * See tests/perf/README.md.
 *
 * Exit status: 0 whenever the benchmark ran, goals met or not; 1 when the harness failed.
 */

const WORK_DIR = path.join(REPO_ROOT, '.data', 'web-bench');

const { log, step } = stepLogger();

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

async function main(): Promise<number> {
  const config = parseWebConfig(process.argv.slice(2));
  assertChromium();
  const ports = stackPorts(config.portBase);
  await assertPortsFree(ports);
  const loadAtStart = loadAverage();

  step('building the floor page');
  // A folder per port base, so two runs on other ports do not rebuild under each other.
  const workDir = path.join(WORK_DIR, String(config.portBase));
  const floorDir = await buildFloor(REPO_ROOT, path.join(workDir, 'floor'));

  step(
    `starting the stack as npm start does (production builds, fresh embedded database; web on ${ports.web})`,
  );
  const buildDirs = benchBuildDirs(REPO_ROOT, config.portBase);
  const stackOptions = { repoRoot: REPO_ROOT, ports, buildDirs };
  return withStack(stackOptions, floorDir, async (stack, floor) => {
    const targets: Target[] = PAGES.map((page) => ({
      page,
      url: `${page.floor ? floor!.url : stack.webUrl}${page.path}`,
      clientRoot: page.floor ? floorDir : path.join(buildDirs.web, 'client'),
    }));
    const documents = new Map<Target, string>();
    for (const target of targets) {
      // Also warms the server (the first render of a route compiles its code paths).
      for (let i = 0; i < 5; i++) documents.set(target, await fetchPage(target.url));
    }

    const results = await measureRounds(targets, (target) => target.page, config, step);

    const pages: PageResult[] = targets.map((target) => {
      const runs = results.get(target)!;
      return {
        name: target.page.name,
        label: target.page.label,
        url: target.url,
        runs: runs.map((run) => run.metrics),
        median: medianMetrics(runs.map((run) => run.metrics)),
        first_load: firstLoadOf(target, documents.get(target)!, runs),
        failed_audits: failedAudits(runs),
      };
    });
    const summary = summarize(pages);
    const goals = judge(summary);
    const anyRun = results.values().next().value?.[0];

    const report = {
      summary,
      goals,
      generated_at: new Date().toISOString(),
      environment: lighthouseEnvironment(loadAtStart, anyRun),
      settings: {
        ...lighthouseSettings(config.runs),
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
        MEDIANS_NOTE,
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
    log(renderGoals(goals));
    await finishReport({ log, step }, config.output, report);
    return 0;
  });
}

runBench('bench:web', main);
