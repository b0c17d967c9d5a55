/*
 * The long-form pages (products, partner pages, rules) as data: one object per page and locale,
 * kept in server-only modules (`<locale>/*.server.ts`) so a route's loader sends the client the
 * one page it shows, never the catalog of every page in every language.
 */
import type { RuleSlug } from '../slugs.ts';

/** A titled block of the page body: paragraphs, then an optional bullet list. */
export interface PageSection {
  heading: string;
  paragraphs?: readonly string[];
  bullets?: readonly string[];
}

/** One step of "How it works". */
export interface PageStep {
  title: string;
  text: string;
}

export interface FaqEntry {
  q: string;
  a: string;
}

/**
 * The call to action: opens the home page's exchange widget with this pair preset. `from` and
 * `to` are currency codes of the seed (hasura/seeds/default/…_currencies.sql).
 */
export interface PageCta {
  label: string;
  from: string;
  to: string;
}

export interface ContentPage {
  /** The h1. */
  title: string;
  metaTitle: string;
  metaDescription: string;
  /** The paragraph under the h1. */
  lead: string;
  sections: readonly PageSection[];
  /** "How it works", in order; empty on the rules documents. */
  steps: readonly PageStep[];
  /** "What you need". */
  requirements: readonly string[];
  /** "Limits and timing". */
  limits: readonly string[];
  faq: readonly FaqEntry[];
  cta: PageCta | null;
}

/** A product or partner page: every part present, with a call to action. */
export interface ServicePage extends ContentPage {
  cta: PageCta;
}

/** How a rules document is listed on the rules overview. */
export interface ContentSummary {
  slug: string;
  title: string;
  lead: string;
}

/** The rules overview (`/rules`) and its three documents, in one locale. */
export interface RulesCatalog {
  overview: ContentPage;
  documents: Record<RuleSlug, ContentPage>;
}
