/*
 * Every workspace declares the workspace packages (@app/*) it imports (decision 028). npm links
 * every workspace into node_modules, so an undeclared import works today and hides who depends
 * on whom; knip checks npm packages but counts workspace imports as local files.
 *
 * Run: tsx scripts/checks/workspace-dependencies.ts [root]. Exits 1 and lists each undeclared
 * import.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders that hold no source of the workspace: installs, builds, data. */
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  'dist',
  'build',
  'coverage',
  '.git',
  '.data',
  '.react-router',
]);
/** Trees checked separately: the fences' fixtures break this rule on purpose. */
const DEFAULT_IGNORED = [
  'tests/fixtures/architecture',
  'tests/perf/postgraphile',
  'tests/perf/postgraphile5',
];
const SOURCE_FILE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;
/** Module specifiers of static and dynamic imports, re-exports and require calls. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

interface Manifest {
  name?: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

interface Workspace {
  /** Folder relative to the root, '' for the root itself. */
  folder: string;
  name: string;
  declared: Set<string>;
}

export interface UndeclaredImport {
  /** The importing file, relative to the root. */
  file: string;
  /** The workspace package it imports. */
  imported: string;
  /** The package.json that should declare it, relative to the root. */
  manifest: string;
}

const readManifest = (file: string): Manifest => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

function workspaceOf(root: string, folder: string): Workspace {
  const manifest = readManifest(path.join(root, folder, 'package.json'));
  return {
    folder,
    name: manifest.name ?? folder,
    declared: new Set(
      [
        manifest.dependencies,
        manifest.devDependencies,
        manifest.peerDependencies,
        manifest.optionalDependencies,
      ].flatMap((deps) => Object.keys(deps ?? {})),
    ),
  };
}

/** The package a specifier names: `@scope/name` or `name`, without a subpath. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function* sourceFiles(root: string, folder: string, ignored: string[]): Generator<string> {
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (SKIPPED_FOLDERS.has(entry.name) || ignored.includes(relative)) continue;
      yield* sourceFiles(root, relative, ignored);
    } else if (entry.isFile() && SOURCE_FILE.test(entry.name)) {
      yield relative;
    }
  }
}

/** The workspace a file belongs to: the deepest whose folder contains it, else the root. */
function owner(file: string, workspaces: Workspace[]): Workspace {
  let best = workspaces.find((workspace) => workspace.folder === '')!;
  for (const workspace of workspaces) {
    if (workspace.folder && file.startsWith(`${workspace.folder}/`)) {
      if (workspace.folder.length > best.folder.length) best = workspace;
    }
  }
  return best;
}

/** Imports of a workspace package that the importing file's workspace does not declare. */
export function undeclaredWorkspaceImports(
  root: string,
  ignored: string[] = DEFAULT_IGNORED,
): UndeclaredImport[] {
  const rootManifest = readManifest(path.join(root, 'package.json'));
  const workspaces = [
    workspaceOf(root, ''),
    ...(rootManifest.workspaces ?? []).map((folder) => workspaceOf(root, folder)),
  ];
  const packages = new Set(workspaces.filter((w) => w.folder).map((w) => w.name));
  const found: UndeclaredImport[] = [];
  for (const file of sourceFiles(root, '', ignored)) {
    const importer = owner(file, workspaces);
    const text = readFileSync(path.join(root, file), 'utf8');
    const imported = new Set(
      [...text.matchAll(SPECIFIER)].map((match) => packageName(match[1] ?? '')),
    );
    for (const name of imported) {
      if (packages.has(name) && name !== importer.name && !importer.declared.has(name)) {
        found.push({ file, imported: name, manifest: path.join(importer.folder, 'package.json') });
      }
    }
  }
  return found;
}

function main(): void {
  const root = path.resolve(process.argv[2] ?? process.cwd());
  const found = undeclaredWorkspaceImports(root);
  for (const { file, imported, manifest } of found) {
    process.stderr.write(`${file}: imports ${imported}, which ${manifest} does not declare\n`);
  }
  if (found.length > 0) {
    process.stderr.write(`${found.length} undeclared workspace imports\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
