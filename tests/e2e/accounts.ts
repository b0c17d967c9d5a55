import type { Page } from '@playwright/test';

import { ADMIN_SECRET, AUTH_URL, GRAPHQL_URL } from './stack.ts';

/*
 * Accounts for the end-to-end tests: unique e-mails (the auth service limits attempts per
 * e-mail), registration through the auth service's API where the test is about something else,
 * and reading what the database holds through the engine with the admin secret.
 */

/** A password the service's policy accepts. */
export const PASSWORD = 'Correct horse 1';

let counter = 0;

/** An address no other test (or earlier run on this stack) uses. */
export function uniqueEmail(tag: string): string {
  counter += 1;
  const stamp = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return `${tag}-${stamp}@example.com`;
}

export async function adminGraphql<T>(
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const response = await fetch(GRAPHQL_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hasura-admin-secret': ADMIN_SECRET },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as T;
}

export interface AccountRow {
  id: string;
  email: string;
  is_2fa: boolean;
  referral_name: string;
  referrer_id: string | null;
}

/** The portal_users row of `email`, as the admin sees it. */
export async function accountByEmail(email: string): Promise<AccountRow> {
  const { portal_users: rows } = await adminGraphql<{ portal_users: AccountRow[] }>(
    `query ($email: String!) {
       portal_users(where: { email: { _eq: $email } }) {
         id email is_2fa referral_name referrer_id
       }
     }`,
    { email },
  );
  const row = rows[0];
  if (!row) throw new Error(`no account for ${email}`);
  return row;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

async function authTokens(path: string, body: Record<string, unknown>): Promise<Tokens> {
  const response = await fetch(`${AUTH_URL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Partial<Tokens> & { code?: string };
  if (!response.ok || !answer.accessToken || !answer.refreshToken)
    throw new Error(`${path} ${String(body['email'])}: ${response.status} ${answer.code ?? ''}`);
  return { accessToken: answer.accessToken, refreshToken: answer.refreshToken };
}

/**
 * POST /register on the auth service (no Origin: as a server calls it), then the address
 * confirmed (with the admin secret, as following the mailed code does) and a login: a customer
 * as most tests need one. An unconfirmed account may have only a few orders and set no phrase
 * or referral name (decision 016), and confirming ends the sign-up's session.
 */
export async function registerAccount(email: string, password = PASSWORD): Promise<Tokens> {
  await authTokens('/register', { email, password, confirmPassword: password });
  await adminGraphql(
    `mutation ($email: String!) {
       update_portal_users(where: { email: { _eq: $email } }, _set: { is_verified_email: true }) {
         affected_rows
       }
     }`,
    { email },
  );
  return authTokens('/login', { email, password });
}

/** Signs the page in before its scripts run: the tokens where the portal keeps them. */
export async function signInWithTokens(page: Page, tokens: Tokens): Promise<void> {
  // A script string: this project's types have no DOM (it runs in the page, not here).
  await page.addInitScript(
    `window.localStorage.setItem('accessToken', ${JSON.stringify(tokens.accessToken)});
     window.localStorage.setItem('refreshToken', ${JSON.stringify(tokens.refreshToken)});`,
  );
}

/** The access token the page has stored (spec section 4: localStorage `accessToken`). */
export const storedAccessToken = (page: Page): Promise<string | null> =>
  page.evaluate<string | null>("window.localStorage.getItem('accessToken')");
