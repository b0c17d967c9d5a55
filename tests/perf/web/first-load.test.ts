import { describe, expect, it } from 'vitest';

import {
  documentScripts,
  firstLoadScripts,
  resolveSpecifier,
  staticImportsOf,
} from './first-load.ts';

/* The parts of bench:web that read what a page loads first, on pages shaped like React Router's. */

const HTML = `<!DOCTYPE html><html><head>
<link rel="stylesheet" href="/assets/app-1.css"/>
<link rel="modulepreload" href="/assets/entry.client-1.js"/>
<link rel="modulepreload" href="/assets/shell-1.js"/>
<link rel="modulepreload" href="/assets/root-1.js"/>
</head><body><main>Hi</main>
<script>window.__PUBLIC_ENV__={"BUILD_ID":"1"}</script>
<script type="module" async="">; import * as route0 from "/assets/root-1.js"; import * as route1 from "/assets/home-1.js";
window.__reactRouterManifest = { "entry": { "module": "/assets/entry.client-1.js" } };
import("/assets/entry.client-1.js");</script>
<script type="application/ld+json">{"@type":"Organization"}</script>
</body></html>`;

const FILES: Record<string, string> = {
  '/assets/entry.client-1.js': 'import{a as e}from"./shell-1.js";var x=1;',
  '/assets/shell-1.js': 'var s=1;export{s as a};',
  '/assets/root-1.js': 'import{a}from"./shell-1.js";import"./root-dep-1.js";export default 1;',
  '/assets/root-dep-1.js': 'export const d=1;',
  '/assets/home-1.js':
    'import{a}from"./shell-1.js";const lazy=()=>import("./lazy-1.js");export default lazy;',
};

describe('staticImportsOf', () => {
  it('reads the leading import and re-export statements of minified modules', () => {
    expect(
      staticImportsOf(
        'import{I as e,M as t}from"./chunk-1.js";import"./side.js";export*from"./re.js";export{x as y}from\'./q.js\';var a=`import "not/this.js"`;',
      ),
    ).toEqual(['./chunk-1.js', './side.js', './re.js', './q.js']);
    expect(staticImportsOf('var e=1;import("./lazy.js")')).toEqual([]);
  });
});

describe('documentScripts', () => {
  it('finds modulepreloads, inline module imports and inline scripts, not JSON blocks', () => {
    const scripts = documentScripts(HTML);
    expect(scripts.modulepreloads).toEqual([
      '/assets/entry.client-1.js',
      '/assets/shell-1.js',
      '/assets/root-1.js',
    ]);
    expect(scripts.inlineImports).toEqual([
      '/assets/root-1.js',
      '/assets/home-1.js',
      '/assets/entry.client-1.js',
    ]);
    expect(scripts.inlineScripts).toHaveLength(2);
    expect(scripts.scriptSrcs).toEqual([]);
  });
});

describe('firstLoadScripts', () => {
  it('closes the declared scripts over static imports and names what is not preloaded', () => {
    const result = firstLoadScripts(HTML, '/', (path) => FILES[path]);
    expect(result.scripts.sort()).toEqual(
      [
        '/assets/entry.client-1.js',
        '/assets/home-1.js',
        '/assets/root-1.js',
        '/assets/root-dep-1.js',
        '/assets/shell-1.js',
      ].sort(),
    );
    // Lazy imports are not first-load; an import of a module without a modulepreload is a waterfall.
    expect(result.notPreloaded).toEqual(['/assets/root-dep-1.js']);
    expect(result.unreadable).toEqual([]);
  });

  it('resolves relative, absolute and external specifiers', () => {
    expect(resolveSpecifier('./x.js', '/assets/a.js')).toBe('/assets/x.js');
    expect(resolveSpecifier('/assets/y.js', '/ru/page')).toBe('/assets/y.js');
    expect(resolveSpecifier('https://cdn.example/w.js', '/')).toBe('https://cdn.example/w.js');
    expect(resolveSpecifier('data:text/javascript,1', '/')).toBeUndefined();
  });
});
