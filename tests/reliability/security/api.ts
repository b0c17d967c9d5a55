import { randomUUID } from 'node:crypto';

import { sign } from '@telegram-apps/init-data-node';
import pg from 'pg';

import type { Stack } from './stack.ts';

/*
 * The product's APIs as its clients call them, for the security checks: the auth service
 * (register, login with the e-mailed code, refresh, Telegram initData), GraphQL as a user, as
 * staff in the manager role and with the admin secret, and SQL on the stack's database for what
 * the APIs refuse.
 */

/** The development credentials the launcher provisions (README, staff console). */
export const ADMIN = { email: 'admin@exchange.local', password: 'dev-only-admin-password' };
/** The engine's development admin secret (hasura/engine/src/env.ts). */
export const DEV_ADMIN_SECRET = 'dev-only-hasura-admin-secret';
/** A password the auth service's policy accepts. */
export const PASSWORD = 'Correct horse 1';
export const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
export const DEPOSIT_ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

export interface GraphqlAnswer<T> {
  data?: T;
  errors?: Array<{ message: string; extensions?: { code?: string; path?: string } }>;
}

let counter = 0;
/** An address no other account on this stack has. */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

export class Api {
  private staffId: string | undefined;

  constructor(
    readonly stack: Pick<Stack, 'authUrl' | 'graphqlUrl' | 'databaseUrl'> & {
      adminSecret?: string;
    },
  ) {}

  /** POST to the auth service (no Origin: as a server calls it); the answer and its headers. */
  async auth<T = Record<string, unknown>>(
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const response = await fetch(`${this.stack.authUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as T,
      headers: response.headers,
    };
  }

  /**
   * Signs up and confirms the address (in the database, as following the mailed code does: an
   * unconfirmed account may set no phrase and have few orders, decision 016); the tokens are
   * a login's, since confirming ends the sign-up's session.
   */
  async register(email: string, password = PASSWORD, referralCode?: string): Promise<Tokens> {
    const answer = await this.auth<Partial<Tokens> & { code?: string }>('/register', {
      email,
      password,
      confirmPassword: password,
      ...(referralCode ? { referralCode } : {}),
    });
    tokensOf('register', answer);
    await this.sql('UPDATE public.portal_users SET is_verified_email = true WHERE email = $1', [
      email.toLowerCase(),
    ]);
    return this.login(email, password);
  }

  async login(email: string, password: string): Promise<Tokens> {
    return tokensOf('login', await this.auth('/login', { email, password }));
  }

  async telegramAuth(initData: string): Promise<Tokens> {
    return tokensOf('telegram-auth', await this.auth('/telegram-auth', { initData }));
  }

  async graphql<T>(
    query: string,
    variables: Record<string, unknown>,
    headers: Record<string, string>,
  ): Promise<GraphqlAnswer<T>> {
    const response = await fetch(this.stack.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GraphqlAnswer<T>;
  }

  /** As a signed-in person (their token's default role, or `role`). */
  as<T>(tokens: Tokens, query: string, variables: Record<string, unknown> = {}, role?: string) {
    return this.graphql<T>(query, variables, {
      authorization: `Bearer ${tokens.accessToken}`,
      ...(role ? { 'x-hasura-role': role } : {}),
    });
  }

  /** With the admin secret; throws on errors. */
  async admin<T>(query: string, variables: Record<string, unknown> = {}, session = {}) {
    return dataOf<T>(
      query,
      await this.graphql<T>(query, variables, {
        'x-hasura-admin-secret': this.stack.adminSecret ?? DEV_ADMIN_SECRET,
        ...session,
      }),
    );
  }

  /** As the provisioned administrator acting in the manager role (the console's steps). */
  async asManager<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    this.staffId ??= (
      await this.admin<{ roles: Array<{ user_id: string }> }>(
        'query { roles(where: { role_type: { _eq: "admin" } }, limit: 1) { user_id } }',
      )
    ).roles[0]?.user_id;
    if (!this.staffId) throw new Error('no provisioned admin');
    return this.admin<T>(query, variables, {
      'x-hasura-role': 'manager',
      'x-hasura-user-id': this.staffId,
    });
  }

  /** A BTC → USDT (TRC20) order as the order form sends it; the raw answer (it may refuse). */
  createOrder(tokens: Tokens, fields: { email: string; fullName: string; reason: string }) {
    return this.as<{ createExchange: { id: string; number: string } }>(
      tokens,
      `mutation ($input: CreateExchangeInput!) { createExchange(input: $input) { id number } }`,
      {
        input: {
          from: 'BTC',
          to: 'USDTTRC20',
          side: 'send',
          amount: '0.05',
          walletAddress: TRC20_ADDRESS,
          agreeTerms: true,
          agreeAml: true,
          idempotencyKey: randomUUID(),
          ...fields,
        },
      },
    );
  }

  readonly staff = {
    supply: (id: string) =>
      this.asManager(
        `mutation ($id: uuid!, $address: String!) {
           supplyRequisites(transactionId: $id, depositAddress: $address) { status }
         }`,
        { id, address: DEPOSIT_ADDRESS },
      ),
    confirm: (id: string) =>
      this.asManager('mutation ($id: uuid!) { confirmPayment(transactionId: $id) { status } }', {
        id,
      }),
    complete: (id: string, tx: string) =>
      this.asManager(
        `mutation ($id: uuid!, $tx: String!) {
           completeExchange(transactionId: $id, payoutTxId: $tx) { status }
         }`,
        { id, tx },
      ),
    cancel: (id: string, reason: string) =>
      this.asManager(
        `mutation ($id: uuid!, $reason: String!) {
           cancelExchangeByStaff(transactionId: $id, reason: $reason) { status }
         }`,
        { id, reason },
      ),
  };

  /** The contact form's request; the raw answer. */
  supportRequest(input: Record<string, unknown>, headers: Record<string, string> = {}) {
    return this.graphql<{ submitSupportRequest: { id: string } }>(
      `mutation ($input: SupportRequestInput!) { submitSupportRequest(input: $input) { id } }`,
      { input },
      headers,
    );
  }

  /** A statement on the stack's database. */
  async sql<Row extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    values: unknown[] = [],
  ): Promise<Row[]> {
    const client = new pg.Client({ connectionString: this.stack.databaseUrl });
    await client.connect();
    try {
      return (await client.query<Row>(text, values)).rows;
    } finally {
      await client.end();
    }
  }
}

function tokensOf(
  what: string,
  answer: { status: number; body: Partial<Tokens> & { code?: string } },
): Tokens {
  const { accessToken, refreshToken } = answer.body;
  if (!accessToken || !refreshToken)
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { accessToken, refreshToken };
}

export function dataOf<T>(what: string, answer: GraphqlAnswer<T>): T {
  if (!answer.data || answer.errors) throw new Error(`${what}: ${JSON.stringify(answer.errors)}`);
  return answer.data;
}

/** Telegram launch data for `user`, signed with `botToken` as Telegram signs it. */
export function signedInitData(
  user: { id: number; first_name: string; username?: string; language_code?: string },
  botToken: string,
): string {
  return sign(
    {
      user: { ...user, allows_write_to_pm: true },
      chat_instance: '-1000000000000000000',
      chat_type: 'private',
      signature: 'reliability-check',
    },
    botToken,
    new Date(),
  );
}
