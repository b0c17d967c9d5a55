import type { Page } from '@playwright/test';

import {
  PASSWORD,
  registerAccount,
  signInWithTokens,
  uniqueEmail,
  type Tokens,
} from './accounts.ts';
import { AUTH_URL, GRAPHQL_URL } from './stack.ts';

/*
 * Staff for the console's end-to-end tests: the administrator the launcher provisions (its
 * development credentials, as `npm start` prints them), managers appointed by that
 * administrator through the console's own action, and plain customers.
 */

export const ADMIN = { email: 'admin@exchange.local', password: 'dev-only-admin-password' };

export interface Person {
  email: string;
  tokens: Tokens;
}

/** POST /login on the auth service; staff accounts here have no two-factor step. */
export async function login(email: string, password: string): Promise<Tokens> {
  const response = await fetch(`${AUTH_URL}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as Partial<Tokens> & { code?: string; is2fa?: boolean };
  if (!response.ok || !body.accessToken || !body.refreshToken)
    throw new Error(`login ${email}: ${response.status} ${body.code ?? ''}`);
  return { accessToken: body.accessToken, refreshToken: body.refreshToken };
}

/**
 * A GraphQL request with a person's access token, as their browser would send it: in the
 * token's default role (`user`), or in `role` as the staff console asks for it.
 */
export async function graphqlAs<T>(
  tokens: Tokens,
  query: string,
  variables: Record<string, unknown> = {},
  role?: 'manager' | 'administrator',
): Promise<{ data?: T; errors?: Array<{ message: string; extensions?: { code?: string } }> }> {
  const response = await fetch(GRAPHQL_URL, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${tokens.accessToken}`,
      ...(role ? { 'x-hasura-role': role } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as {
    data?: T;
    errors?: Array<{ message: string; extensions?: { code?: string } }>;
  };
}

/** `graphqlAs` for a step the test relies on: its data, or an error naming the query. */
export async function graphqlData<T>(
  tokens: Tokens,
  query: string,
  variables: Record<string, unknown> = {},
  role?: 'manager' | 'administrator',
): Promise<T> {
  const body = await graphqlAs<T>(tokens, query, variables, role);
  if (!body.data || body.errors) throw new Error(`${query}: ${JSON.stringify(body.errors)}`);
  return body.data;
}

export const adminTokens = (): Promise<Tokens> => login(ADMIN.email, ADMIN.password);

/** A new customer account, signed up through the auth service. */
export async function newCustomer(tag = 'customer'): Promise<Person> {
  const email = uniqueEmail(tag);
  return { email, tokens: await registerAccount(email, PASSWORD) };
}

/**
 * A new manager: a customer the administrator appoints with `grantManagerRole`, then signed in
 * again so the access token carries the role.
 */
export async function newManager(tag = 'manager'): Promise<Person> {
  const customer = await newCustomer(tag);
  const granted = await graphqlAs<{ grantManagerRole: { isManager: boolean } }>(
    await adminTokens(),
    'mutation ($email: String!) { grantManagerRole(email: $email) { isManager } }',
    { email: customer.email },
    'administrator',
  );
  if (!granted.data?.grantManagerRole.isManager)
    throw new Error(`grantManagerRole ${customer.email}: ${JSON.stringify(granted.errors)}`);
  return { email: customer.email, tokens: await login(customer.email, PASSWORD) };
}

/** Signs the page in as `person` before its scripts run. */
export const signInAsPerson = (page: Page, person: Person): Promise<void> =>
  signInWithTokens(page, person.tokens);

/** Signs the page in as the provisioned administrator. */
export async function signInAsAdmin(page: Page): Promise<Person> {
  const admin = { email: ADMIN.email, tokens: await adminTokens() };
  await signInWithTokens(page, admin.tokens);
  return admin;
}
