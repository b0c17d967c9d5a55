/*
 * Server-only: every long-form page in every locale. Route loaders pick the one page a request
 * shows (`findServicePage`, `findRulesPage`), so the client receives one page of one language as
 * loader data and its JavaScript never carries the catalog.
 */
import type { Locale } from '@app/shared/i18n';

import {
  PARTNER_SLUGS,
  PRODUCT_SLUGS,
  RULE_SLUGS,
  type PartnerSlug,
  type ProductSlug,
  type RuleSlug,
} from '../slugs.ts';
import { partners as enPartners } from './en/partners.server.ts';
import { products as enProducts } from './en/products.server.ts';
import { rules as enRules } from './en/rules.server.ts';
import { partners as ruPartners } from './ru/partners.server.ts';
import { products as ruProducts } from './ru/products.server.ts';
import { rules as ruRules } from './ru/rules.server.ts';
import type { ContentPage, ContentSummary, RulesCatalog, ServicePage } from './types.ts';
import { partners as uaPartners } from './ua/partners.server.ts';
import { products as uaProducts } from './ua/products.server.ts';
import { rules as uaRules } from './ua/rules.server.ts';

export const PRODUCT_PAGES: Record<Locale, Record<ProductSlug, ServicePage>> = {
  en: enProducts,
  ru: ruProducts,
  ua: uaProducts,
};

export const PARTNER_PAGES: Record<Locale, Record<PartnerSlug, ServicePage>> = {
  en: enPartners,
  ru: ruPartners,
  ua: uaPartners,
};

export const RULES_PAGES: Record<Locale, RulesCatalog> = { en: enRules, ru: ruRules, ua: uaRules };

const isOneOf = <T extends string>(list: readonly T[], value: string | undefined): value is T =>
  value !== undefined && (list as readonly string[]).includes(value);

/** A product or partner page, or undefined for a slug that is not one. */
export function findServicePage(
  kind: 'products' | 'partners',
  locale: Locale,
  slug: string | undefined,
): ServicePage | undefined {
  if (kind === 'products') {
    return isOneOf(PRODUCT_SLUGS, slug) ? PRODUCT_PAGES[locale][slug] : undefined;
  }
  return isOneOf(PARTNER_SLUGS, slug) ? PARTNER_PAGES[locale][slug] : undefined;
}

/** A rules document, or undefined for a slug that is not one. */
export function findRulesDocument(
  locale: Locale,
  slug: string | undefined,
): ContentPage | undefined {
  return isOneOf(RULE_SLUGS, slug) ? RULES_PAGES[locale].documents[slug] : undefined;
}

/** The rules overview with the title and lead of each document, for its list of links. */
export function rulesOverview(locale: Locale): { page: ContentPage; documents: ContentSummary[] } {
  const catalog = RULES_PAGES[locale];
  return {
    page: catalog.overview,
    documents: RULE_SLUGS.map((slug) => ({
      slug,
      title: catalog.documents[slug].title,
      lead: catalog.documents[slug].lead,
    })),
  };
}

/** The other documents of the rules, for the "related documents" links of one of them. */
export function relatedRulesDocuments(locale: Locale, slug: RuleSlug): ContentSummary[] {
  return RULE_SLUGS.filter((other) => other !== slug).map((other) => ({
    slug: other,
    title: RULES_PAGES[locale].documents[other].title,
    lead: RULES_PAGES[locale].documents[other].lead,
  }));
}
