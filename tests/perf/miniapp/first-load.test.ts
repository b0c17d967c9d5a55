import { describe, expect, it } from 'vitest';

import type { LoadedResource } from '../web/lighthouse.ts';
import type { ViteManifest } from './build.ts';
import { countedBeforeFcp, manifestClosure, planFromManifest, splitAtFcp } from './first-load.ts';

/* The parts of bench:miniapp that decide what the mini-app loads before its first render. */

const MANIFEST: ViteManifest = {
  'index.html': {
    file: 'assets/index-1.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_sdk-1.js', '_shell-1.js'],
    dynamicImports: [
      '../shared/src/i18n/resources/en.ts',
      '../shared/src/i18n/resources/ru.ts',
      'src/exchange/order-form.tsx',
      'src/telegram/dev-client.ts',
    ],
    css: ['assets/index-1.css'],
  },
  '_sdk-1.js': { file: 'assets/sdk-1.js' },
  '_shell-1.js': { file: 'assets/shell-1.js', imports: ['_sdk-1.js'] },
  '../shared/src/i18n/resources/en.ts': {
    file: 'assets/en-1.js',
    src: '../shared/src/i18n/resources/en.ts',
    isDynamicEntry: true,
  },
  '../shared/src/i18n/resources/ru.ts': {
    file: 'assets/ru-1.js',
    src: '../shared/src/i18n/resources/ru.ts',
    isDynamicEntry: true,
  },
  'src/exchange/order-form.tsx': {
    file: 'assets/order-form-1.js',
    src: 'src/exchange/order-form.tsx',
    isDynamicEntry: true,
    imports: ['_sdk-1.js', 'index.html'],
    css: ['assets/order-form-1.css'],
  },
  'src/telegram/dev-client.ts': {
    file: 'assets/dev-client-1.js',
    src: 'src/telegram/dev-client.ts',
    isDynamicEntry: true,
  },
};

const resource = (url: string, resourceType: string, startMs: number): LoadedResource => ({
  url,
  resourceType,
  priority: 'High',
  transferSize: 100,
  resourceSize: 200,
  startMs,
  endMs: startMs + 10,
});

describe('planFromManifest', () => {
  it('closes the entry over its static imports, with its CSS', () => {
    expect(manifestClosure(MANIFEST, 'index.html')).toEqual({
      scripts: ['assets/index-1.js', 'assets/sdk-1.js', 'assets/shell-1.js'],
      styles: ['assets/index-1.css'],
    });
  });

  it('finds the English resources when a chunk the entry imports loads them', () => {
    // As the mini-app builds today: the locale loader sits in a shared chunk, not the entry.
    const { dynamicImports = [], ...entry } = MANIFEST['index.html']!;
    const manifest: ViteManifest = {
      ...MANIFEST,
      'index.html': { ...entry, dynamicImports: dynamicImports.slice(2) },
      '_shell-1.js': { ...MANIFEST['_shell-1.js']!, dynamicImports: dynamicImports.slice(0, 2) },
    };
    expect(planFromManifest(manifest).locale).toEqual({ scripts: ['assets/en-1.js'], styles: [] });
  });

  it('finds the English resources and the dev-client, and calls the rest lazy', () => {
    const plan = planFromManifest(MANIFEST);
    expect(plan.locale).toEqual({ scripts: ['assets/en-1.js'], styles: [] });
    expect(plan.devClient).toEqual({ scripts: ['assets/dev-client-1.js'], styles: [] });
    expect(Object.fromEntries(plan.roles)).toEqual({
      'assets/index-1.js': 'entry',
      'assets/sdk-1.js': 'entry',
      'assets/shell-1.js': 'entry',
      'assets/index-1.css': 'entry',
      'assets/en-1.js': 'locale',
      'assets/dev-client-1.js': 'dev-client',
      'assets/ru-1.js': 'lazy',
      'assets/order-form-1.js': 'lazy',
      'assets/order-form-1.css': 'lazy',
    });
  });
});

describe('splitAtFcp and countedBeforeFcp', () => {
  const origin = 'http://localhost:1';
  const base = '/telegram-app/';
  const at = (file: string, type: string, startMs: number) =>
    resource(`${origin}${base}assets/${file}`, type, startMs);
  const resources = [
    resource(`${origin}${base}`, 'Document', 0),
    at('index-1.js', 'Script', 5),
    at('index-1.css', 'Stylesheet', 5),
    at('en-1.js', 'Script', 40),
    at('order-form-1.js', 'Script', 120),
    resource('http://localhost:2/v1/graphql', 'Fetch', 30),
    resource(`${origin}/assets/other.js`, 'Script', 1),
  ];

  it("keeps the app's own scripts and styles, split at the paint", () => {
    expect(splitAtFcp(resources, 100, origin, base)).toEqual({
      fcp_ms: 100,
      before: [
        '/telegram-app/assets/index-1.js',
        '/telegram-app/assets/index-1.css',
        '/telegram-app/assets/en-1.js',
      ],
      after: ['/telegram-app/assets/order-form-1.js'],
    });
  });

  it('counts what started before the paint in at least half the runs', () => {
    const splits = [100, 30, 130].map((fcp) => splitAtFcp(resources, fcp, origin, base));
    expect(Object.fromEntries(countedBeforeFcp(splits))).toEqual({
      '/telegram-app/assets/index-1.js': 3,
      '/telegram-app/assets/index-1.css': 3,
      '/telegram-app/assets/en-1.js': 2,
    });
  });
});
