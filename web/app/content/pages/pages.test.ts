import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { LOCALES } from '@app/shared/i18n';

import { PARTNER_SLUGS, PRODUCT_SLUGS, RULE_SLUGS } from '../slugs.ts';
import {
  findRulesDocument,
  findServicePage,
  PARTNER_PAGES,
  PRODUCT_PAGES,
  RULES_PAGES,
} from './index.server.ts';
import type { ContentPage } from './types.ts';

/** The currency codes the seed inserts: the first quoted value of each row. */
const SEEDED_CODES = new Set(
  [
    ...readFileSync(
      new URL('../../../../hasura/seeds/default/1763740900100_currencies.sql', import.meta.url),
      'utf8',
    ).matchAll(/^\s*\('([A-Z0-9]+)',/gm),
  ].map((match) => match[1]),
);

const CYRILLIC = /[а-яіїєґ]/i;

function expectComplete(page: ContentPage) {
  expect(page.title.trim()).not.toBe('');
  expect(page.lead.trim()).not.toBe('');
  expect(page.metaTitle.length).toBeGreaterThan(10);
  expect(page.metaDescription.length).toBeGreaterThan(50);
  expect(page.metaDescription.length).toBeLessThanOrEqual(200);
  expect(page.sections.length).toBeGreaterThan(0);
  for (const section of page.sections) {
    expect(section.heading.trim()).not.toBe('');
    expect((section.paragraphs?.length ?? 0) + (section.bullets?.length ?? 0)).toBeGreaterThan(0);
  }
  expect(page.faq.length).toBeGreaterThanOrEqual(4);
  expect(page.faq.length).toBeLessThanOrEqual(6);
  for (const entry of page.faq) {
    expect(entry.q.trim()).not.toBe('');
    expect(entry.a.trim()).not.toBe('');
  }
  // React keys: headings, steps, list items and questions are unique within a page.
  const unique = (values: readonly string[]) => expect(new Set(values).size).toBe(values.length);
  unique(page.sections.map((section) => section.heading));
  unique(page.steps.map((step) => step.title));
  unique(page.faq.map((entry) => entry.q));
  unique(page.requirements);
  unique(page.limits);
}

describe('content pages', () => {
  it('reads the seeded currency codes', () => {
    expect(SEEDED_CODES.size).toBeGreaterThan(50);
    expect(SEEDED_CODES).toContain('USDTTRC20');
  });

  for (const locale of LOCALES) {
    describe(locale, () => {
      const servicePages = [
        ...PRODUCT_SLUGS.map((slug) => [`products/${slug}`, PRODUCT_PAGES[locale][slug]] as const),
        ...PARTNER_SLUGS.map(
          (slug) => [`for-partners/${slug}`, PARTNER_PAGES[locale][slug]] as const,
        ),
      ];

      it.each(servicePages)(
        '%s is complete, with a call to action on seeded currencies',
        (_, page) => {
          expect(page).toBeDefined();
          expectComplete(page);
          expect(page.steps.length).toBeGreaterThanOrEqual(4);
          expect(page.requirements.length).toBeGreaterThan(0);
          expect(page.limits.length).toBeGreaterThan(0);
          expect(page.cta.label.trim()).not.toBe('');
          expect(SEEDED_CODES).toContain(page.cta.from);
          expect(SEEDED_CODES).toContain(page.cta.to);
          expect(page.cta.from).not.toBe(page.cta.to);
        },
      );

      it.each(RULE_SLUGS.map((slug) => [slug]))('rules/%s is complete', (slug) => {
        const page = RULES_PAGES[locale].documents[slug];
        expect(page).toBeDefined();
        expectComplete(page);
      });

      it('the rules overview is complete', () => {
        expectComplete(RULES_PAGES[locale].overview);
      });

      it('has exactly the slugs of the menus, no more', () => {
        expect(Object.keys(PRODUCT_PAGES[locale]).sort()).toEqual([...PRODUCT_SLUGS].sort());
        expect(Object.keys(PARTNER_PAGES[locale]).sort()).toEqual([...PARTNER_SLUGS].sort());
        expect(Object.keys(RULES_PAGES[locale].documents).sort()).toEqual([...RULE_SLUGS].sort());
      });

      it('has unique page titles', () => {
        const titles = [
          ...Object.values(PRODUCT_PAGES[locale]),
          ...Object.values(PARTNER_PAGES[locale]),
          ...Object.values(RULES_PAGES[locale].documents),
          RULES_PAGES[locale].overview,
        ].map((page) => page.metaTitle);
        expect(new Set(titles).size).toBe(titles.length);
      });
    });
  }

  it('Russian and Ukrainian pages are translated, not copies of English', () => {
    for (const locale of ['ru', 'ua'] as const) {
      for (const slug of PRODUCT_SLUGS) {
        const page = PRODUCT_PAGES[locale][slug];
        expect(page.lead).toMatch(CYRILLIC);
        expect(page.faq[0]?.a).toMatch(CYRILLIC);
        expect(page.lead).not.toBe(PRODUCT_PAGES.en[slug].lead);
      }
      for (const slug of PARTNER_SLUGS) {
        expect(PARTNER_PAGES[locale][slug].lead).toMatch(CYRILLIC);
      }
      for (const slug of RULE_SLUGS) {
        expect(RULES_PAGES[locale].documents[slug].lead).toMatch(CYRILLIC);
      }
    }
    // Ukrainian is not Russian either.
    for (const slug of PRODUCT_SLUGS) {
      expect(PRODUCT_PAGES.ua[slug].lead).not.toBe(PRODUCT_PAGES.ru[slug].lead);
    }
  });

  it('the same page keeps the same call to action in every language', () => {
    for (const slug of PRODUCT_SLUGS) {
      const { from, to } = PRODUCT_PAGES.en[slug].cta;
      for (const locale of LOCALES) {
        expect(PRODUCT_PAGES[locale][slug].cta).toMatchObject({ from, to });
      }
    }
    for (const slug of PARTNER_SLUGS) {
      const { from, to } = PARTNER_PAGES.en[slug].cta;
      for (const locale of LOCALES) {
        expect(PARTNER_PAGES[locale][slug].cta).toMatchObject({ from, to });
      }
    }
  });

  it('finds pages by slug and nothing else', () => {
    expect(findServicePage('products', 'ru', 'car-purchase')?.title).toBe(
      PRODUCT_PAGES.ru['car-purchase'].title,
    );
    expect(findServicePage('partners', 'ua', 'fop-payment')).toBe(PARTNER_PAGES.ua['fop-payment']);
    expect(findServicePage('products', 'en', 'fop-payment')).toBeUndefined();
    expect(findServicePage('products', 'en', 'constructor')).toBeUndefined();
    expect(findServicePage('partners', 'en', undefined)).toBeUndefined();
    expect(findRulesDocument('en', 'privacy-policy')).toBe(
      RULES_PAGES.en.documents['privacy-policy'],
    );
    expect(findRulesDocument('en', 'toString')).toBeUndefined();
  });
});
