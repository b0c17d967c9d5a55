import { sign } from '@telegram-apps/init-data-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets, type TestDatabase } from '../../support/databases.ts';
import {
  ACTIONS_SECRET,
  startActionsStack,
  TEN_YEARS,
  type ActionsStack,
} from '../actions/harness.ts';

import {
  createUser,
  migratedDatabase,
  startAuth,
  TEST_BOT_TOKEN,
  type AuthServer,
} from './harness.ts';

/*
 * Issue 19, point 7: "a referral name given up can be taken by someone else, who then collects
 * sign-ups from the old links". A name given up stays reserved for its owner, and the links
 * already shared with it keep crediting them.
 */

const UPDATE_NAME = `mutation ($id: uuid!, $name: String!) {
  update_portal_users_by_pk(pk_columns: {id: $id}, _set: {referral_name: $name}) { referral_name }
}`;

describe.each(databaseTargets)(
  'security regression: referral names given up on $name',
  (target) => {
    let db: TestDatabase;
    let auth: AuthServer;
    let stack: ActionsStack;
    let alice: string;
    let mallory: string;

    const nameOf = async (id: string) =>
      (
        await db.pool.query<{ referral_name: string }>(
          'SELECT referral_name FROM portal_users WHERE id = $1',
          [id],
        )
      ).rows[0]!.referral_name;

    beforeAll(async () => {
      db = await migratedDatabase(target);
      auth = await startAuth(db, undefined);
      stack = await startActionsStack(db, {
        env: { ACTIONS_SECRET, QUOTE_MAX_RATE_AGE_SECONDS: TEN_YEARS },
      });
      alice = await createUser(db, { email: 'alice@example.com', referralName: 'AliceFlyers' });
      mallory = await createUser(db, { email: 'mallory@example.com', referralName: 'mallory1' });
    });
    afterAll(async () => {
      await stack?.close();
      await auth?.close();
      await db?.dispose();
    });

    it('keeps a given-up name from anyone else, in any case', async () => {
      const renamed = await stack.graphql(UPDATE_NAME, { id: alice, name: 'AliceNew' }, alice);
      expect(renamed.errors).toBeUndefined();
      const taken = await stack.graphql(UPDATE_NAME, { id: mallory, name: 'aliceflyers' }, mallory);
      expect(taken.data?.['update_portal_users_by_pk'] ?? null).toBeNull();
      expect(taken.errors?.[0]?.extensions?.['code']).toBe('constraint-violation');
      expect(await nameOf(mallory)).toBe('mallory1');
    });

    it('credits the old links to the name’s owner', async () => {
      const initData = sign(
        { user: { id: 5150001, first_name: 'New' }, query_id: 'AAHdF6IQAAAAAN0XohDhrOrc' },
        TEST_BOT_TOKEN,
        new Date(Date.now() - 5000),
      );
      const reply = await auth.post('/telegram-auth', { initData, referralCode: 'ALICEFLYERS' });
      expect(reply.status).toBe(200);
      const { rows } = await db.pool.query<{ referrer_id: string }>(
        'SELECT referrer_id FROM portal_users WHERE telegram_id = 5150001',
      );
      expect(rows).toEqual([{ referrer_id: alice }]);
    });

    it('lets the owner take their old name back, and then reserves the newer one', async () => {
      const back = await stack.graphql(UPDATE_NAME, { id: alice, name: 'AliceFlyers' }, alice);
      expect(back.errors).toBeUndefined();
      expect(await nameOf(alice)).toBe('AliceFlyers');
      const newer = await stack.graphql(UPDATE_NAME, { id: mallory, name: 'alicenew' }, mallory);
      expect(newer.errors?.[0]?.extensions?.['code']).toBe('constraint-violation');
    });
  },
);
