// The design's import rules (shared/ARCHITECTURE.md, decision 028), checked by dependency-cruiser.
// Paths are relative to the directory the cruise runs in (the repository root, or a fixture tree
// in tests/fixtures/architecture that has the same layout).

/** The apps: none imports another. Tests and root scripts may import anything. */
const APPS = [
  'web',
  'miniapp',
  'bot',
  'auth-service',
  'hasura/actions',
  'hasura/engine',
  'watchers',
];
const appPath = (app) => `^${app}/`;
const otherApps = (app) => APPS.filter((other) => other !== app).map(appPath);

/**
 * shared's modules that run on a server only: database, logging, mail, env, observability, the
 * constant-time check, the development launch's signing, the e-mail and receipt texts and the
 * error messages of every locale at once (browsers load one locale's catalogs).
 */
const SHARED_SERVER_ONLY =
  '^shared/src/(db|log|mail|service|observability|env|crypto|telegram/dev-launch|i18n/server|errors/messages)(/|\\.ts$)';

/** Browser code: the client core, web's app (client and SSR) and the mini-app. */
const BROWSER_CODE = '^(client/src|web/app|miniapp/src)/';
/** Files inside browser folders that never reach a browser: React Router's *.server modules,
 *  tests and benchmarks (they run under Node). */
const NOT_SHIPPED_TO_BROWSER = '\\.(server|test|perf|bench)\\.tsx?$';
/** npm packages that only make sense on a server. */
const SERVER_PACKAGES = [
  'pg',
  'pg-[^/]+',
  'express',
  '@react-router/express',
  '@react-router/node',
  'compression',
  'nodemailer',
  'pino',
  'prom-client',
  'ws',
  '@electric-sql/pglite',
  // Installed: a path in node_modules; not installed: the bare name.
].map((name) => `(^|/node_modules/)${name}(/|$)`);

/** What the engine may use from shared: the generic service plumbing, nothing of the product. */
const ENGINE_MAY_USE_FROM_SHARED =
  '^shared/src/(db/service-pool|env|log|observability|service)(/|\\.ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...APPS.map((app) => ({
      name: `no-app-imports-another-app:${app}`,
      comment: `${app} imports another app; move the shared piece into shared/ or client/.`,
      severity: 'error',
      from: { path: appPath(app) },
      to: { path: otherApps(app) },
    })),
    {
      name: 'shared-imports-no-app',
      comment: 'shared/ is imported by every app, so it may import none of them (nor client/).',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: [...APPS.map(appPath), '^client/'] },
    },
    {
      name: 'client-imports-no-app',
      comment:
        'client/ is the core web and the mini-app share; it imports shared/ and npm packages only.',
      severity: 'error',
      from: { path: '^client/' },
      to: { path: APPS.map(appPath) },
    },
    {
      name: 'browser-code-imports-no-server-code',
      comment:
        'Code that ships to a browser imports no server-only shared module, server package or Node built-in. ' +
        'Server-only code in web/app belongs in a *.server.ts module.',
      severity: 'error',
      from: { path: BROWSER_CODE, pathNot: NOT_SHIPPED_TO_BROWSER },
      to: {
        path: [SHARED_SERVER_ONLY, ...SERVER_PACKAGES, '^web/server/'],
      },
    },
    {
      name: 'browser-code-imports-no-node-builtin',
      comment: 'Code that ships to a browser imports no Node built-in (node:*, fs, path, ...).',
      severity: 'error',
      from: { path: BROWSER_CODE, pathNot: NOT_SHIPPED_TO_BROWSER },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'shared-browser-modules-import-no-server-code',
      comment:
        'shared/ modules outside the server-only folders are imported by browser code, so the ' +
        'browser rules hold for them too (else server code would reach the browser through them).',
      severity: 'error',
      from: { path: '^shared/src/', pathNot: [SHARED_SERVER_ONLY, NOT_SHIPPED_TO_BROWSER] },
      to: {
        path: [SHARED_SERVER_ONLY, ...SERVER_PACKAGES],
      },
    },
    {
      name: 'shared-browser-modules-import-no-node-builtin',
      comment: 'shared/ modules outside the server-only folders import no Node built-in.',
      severity: 'error',
      from: { path: '^shared/src/', pathNot: [SHARED_SERVER_ONLY, NOT_SHIPPED_TO_BROWSER] },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'engine-imports-nothing-of-the-product',
      comment:
        'The engine is a generic Hasura-dialect server: of the product it may use only shared/s generic ' +
        'service plumbing (env, log, observability, service, db/service-pool).',
      severity: 'error',
      from: { path: '^hasura/engine/' },
      to: { path: '^(shared|client)/', pathNot: ENGINE_MAY_USE_FROM_SHARED },
    },
    {
      name: 'no-circular',
      comment: 'Modules import one another in a cycle; the design reads one way.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'The import resolves to no file or package: a typo, or a package that is not installed.',
      severity: 'error',
      from: {},
      // React Router's generated route types (./+types/*) live in .react-router/types (a rootDir);
      // `virtual:*` modules come from the apps' Vite plugins (web/vite/).
      to: { couldNotResolve: true, pathNot: ['(^|/)\\+types/', '^virtual:'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: [
        '(^|/)node_modules/',
        '(^|/)(dist|build|\\.react-router|\\.e2e-build-[^/]*|\\.bench-build-[^/]*)/',
        '^tests/fixtures/architecture/',
        // Separately installed packages (their own lockfiles), run only by bench:engine.
        '^tests/perf/postgraphile/',
        '^tests/perf/postgraphile5/',
      ],
    },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    // Workspace packages (@app/*) are symlinks in node_modules; following them to their real
    // folders lets the rules above see that an @app/web import lands in web/.
    preserveSymlinks: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.cjs', '.mjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    // Vite's ?raw / ?url suffixes name files too.
    skipAnalysisNotInRules: true,
  },
};
