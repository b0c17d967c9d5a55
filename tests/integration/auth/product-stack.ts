import { randomUUID } from 'node:crypto';

import { createSmtpMailer, type Mailer } from '@app/shared/mail';

import type { DatabaseTarget, TestDatabase } from '../../support/databases.ts';
import {
  ACTIONS_SECRET,
  prepareDatabase,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
  type GraphqlBody,
} from '../actions/harness.ts';
import { codeIn, startAuth, startMailbox, type AuthServer, type Mailbox } from './harness.ts';

/*
 * The auth service, the engine and the actions service on one migrated and seeded database,
 * with one real SMTP mailbox for all their mail: what an account's tokens can do end to end
 * (issue 19, decision 016). Requests carry the auth service's own tokens, never minted ones.
 */

export const TRC20_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

export const CREATE = `mutation ($input: CreateExchangeInput!) {
  createExchange(input: $input) { id status }
}`;

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

export interface ProductStack {
  db: TestDatabase;
  mailbox: Mailbox;
  auth: AuthServer;
  stack: ActionsStack;
  /** GraphQL with an access token (anonymous without). */
  graphql(
    token: string | undefined,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<GraphqlBody>;
  /** createExchange (BTC to USDT TRC20) with `token`; `email` is the form's e-mail field. */
  createOrder(token: string, email: string, key?: string): Promise<GraphqlBody>;
  /** POST a path of the auth service that answers tokens; fails unless it did. */
  tokens(path: string, body: Record<string, unknown>): Promise<Tokens>;
  /** Signs in to a known address with the code mailed to it (POST /quick-auth, then the code). */
  proveByCode(email: string, headers?: Record<string, string>): Promise<Tokens>;
  close(): Promise<void>;
}

export async function startProductStack(target: DatabaseTarget): Promise<ProductStack> {
  const db = await target.create();
  await prepareDatabase(db, {});
  const mailbox = await startMailbox();
  const mailer: Mailer = createSmtpMailer(mailbox.url, 'Exchange <no-reply@exchange.test>');
  const auth = await startAuth(db, mailbox);
  const stack = await startActionsStack(db, {
    env: {
      ACTIONS_SECRET,
      QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS,
      PUBLIC_WEB_URL: 'https://exchange.test',
    },
    mailer,
  });

  const graphql: ProductStack['graphql'] = async (token, query, variables = {}) => {
    const response = await fetch(`${stack.engineUrl}/v1/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GraphqlBody;
  };

  const tokens: ProductStack['tokens'] = async (path, body) => {
    const reply = await auth.post(path, body);
    if (reply.status !== 200 || typeof reply.body['accessToken'] !== 'string')
      throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return {
      accessToken: reply.body['accessToken'],
      refreshToken: reply.body['refreshToken'] as string,
    };
  };

  return {
    db,
    mailbox,
    auth,
    stack,
    graphql,
    tokens,
    createOrder: (token, email, key = randomUUID()) =>
      graphql(token, CREATE, {
        input: {
          from: 'BTC',
          to: 'USDTTRC20',
          side: 'send',
          amount: '0.015',
          email,
          fullName: 'Your funds are frozen, verify at https://evil.example',
          walletAddress: TRC20_ADDRESS,
          reason: 'Savings',
          agreeTerms: true,
          agreeAml: true,
          idempotencyKey: key,
        },
      }),
    async proveByCode(email, headers = {}) {
      const seen = mailbox.to(email).length;
      const challenge = await auth.post('/quick-auth', { email }, headers);
      if (challenge.body['is2fa'] !== true)
        throw new Error(`no challenge for ${email}: ${JSON.stringify(challenge.body)}`);
      const mail = await mailbox.waitFor(
        email,
        (m) => !mailbox.to(email).slice(0, seen).includes(m),
      );
      return tokens('/login_with_2fa', { token: challenge.body['token'], code: codeIn(mail) });
    },
    async close() {
      await stack.close();
      await auth.close();
      mailer.close();
      await mailbox.close();
      await db.dispose();
    },
  };
}
