import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { LOCALES, loadResources, loadStaffResources, resources } from './index.ts';

/** The modules a source file imports or re-exports for their values (type-only ones left out). */
function valueImports(file: string): string[] {
  const source = readFileSync(new URL(file, import.meta.url), 'utf8');
  const statement = /^(?:import|export)\s+(?!type\b)(?:[^;'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  return [...source.matchAll(statement)].map((match) => match[1]!);
}

describe('i18n resources', () => {
  it('has every locale, each with the namespaces of English', () => {
    const namespaces = Object.keys(resources.en).sort();
    expect(namespaces).toContain('common');
    for (const locale of LOCALES) expect(Object.keys(resources[locale]).sort()).toEqual(namespaces);
  });

  it('loads one locale on demand, the same catalogs as `resources`', async () => {
    for (const locale of LOCALES) {
      const publicTexts = await loadResources(locale);
      const staffTexts = await loadStaffResources(locale);
      expect({ ...publicTexts, ...staffTexts }).toEqual(resources[locale]);
    }
  });

  it("keeps the staff console's namespaces out of the public chunk", async () => {
    for (const locale of LOCALES) {
      const publicNamespaces = Object.keys(await loadResources(locale));
      const staffNamespaces = Object.keys(await loadStaffResources(locale));
      expect(staffNamespaces).toEqual([
        'staff',
        'staffOrders',
        'staffTeam',
        'staffCustomers',
        'staffAudit',
      ]);
      expect(publicNamespaces.filter((name) => staffNamespaces.includes(name))).toEqual([]);
    }
  });

  // A static import of a locale next to the dynamic one would put every language back into
  // each page's shared chunk (Vite reports INEFFECTIVE_DYNAMIC_IMPORT and bundles it anyway).
  it('reaches the catalogs only through the per-locale dynamic imports', () => {
    for (const file of ['./index.ts', './load.ts', './locales.ts'])
      expect(valueImports(file).filter((target) => /resources\/|catalogs\//.test(target))).toEqual(
        [],
      );
    for (const locale of LOCALES) {
      for (const chunk of [`./resources/${locale}.ts`, `./resources/staff-${locale}.ts`]) {
        const imports = valueImports(chunk);
        expect(imports.length).toBeGreaterThan(0);
        // A locale's chunk holds its own catalogs and nothing of another language.
        for (const target of imports)
          expect(target).toMatch(new RegExp(`^\\.\\./catalogs/${locale}/`));
      }
    }
  });
});
