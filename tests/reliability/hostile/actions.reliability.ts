import fc from 'fast-check';
import {
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { databaseTargets } from '../../support/databases.ts';
import { recordFigures } from '../figures.ts';
import { byProfile } from '../profile.ts';

import { startHostileStack, type HostileStack } from './engine-stack.ts';
import { ROLES, safeActionArgument, type Role, type Shot } from './graphql-shots.ts';
import { changedTables, snapshotTables, type Snapshot } from './snapshot.ts';
import { Tally } from './tally.ts';
import { hostileNumeric, hostileString, hostileUuid, nastyString, unknownWord } from './values.ts';

/*
 * Hostile action inputs (issue 11): every action of hasura/metadata/actions.yaml called through
 * the engine, as each role, with arguments of the types the schema accepts and values that are
 * hostile for what they mean: amounts negative, zero, huge, with hundreds of decimals or in
 * exponent form; ids that are no uuid or name nothing; overlong and NUL-laden texts; words
 * (side, outcome, choice, category, locale) that are none of the expected ones; addresses,
 * IBANs and tokens that almost pass. No answer may be a 5xx or carry an `unexpected` code,
 * and nothing may be written: the inputs are made so that no request can be valid
 * (graphql-shots.ts safeActionArgument; support requests get a valid e-mail only beside a
 * NUL character, which must be refused).
 *
 * HOSTILE_SEED=<n> replays a run (the seed is printed on failure and in the figures).
 */

const SEED = Number(process.env['HOSTILE_SEED'] ?? Date.now() % 2_147_483_647);
const REQUESTS = Number(
  process.env['HOSTILE_ACTION_REQUESTS'] ?? byProfile({ short: 3_000, full: 12_000 }),
);
const PARALLEL = 6;

const TRC20 = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const IBAN = 'DE89370400440532013000';

const WORDS: Record<string, readonly string[]> = {
  side: ['send', 'receive'],
  outcome: ['paid', 'rejected', 'release', 'refund'],
  choice: ['continue', 'refund'],
  category: ['aml_review', 'source_of_funds', 'sanctions_screening', 'identity_verification'],
  locale: ['en', 'ru', 'ua'],
};

const currency = fc.oneof(
  fc.constantFrom(
    'BTC',
    'USDTTRC20',
    'ETH',
    'XMR',
    'UAH',
    'EUR',
    'CASHUSD',
    'btc',
    ' BTC',
    'BTC\u0000',
  ),
  unknownWord,
  hostileString(300),
);

/** A plausible, valid value for an argument, so that the hostile ones beside it get far. */
function plausible(typeName: string, name: string): fc.Arbitrary<unknown> {
  if (typeName === 'uuid') return fc.uuid();
  if (typeName === 'numeric') return fc.constantFrom('0.5', '1', '150', '0.015');
  if (typeName === 'Boolean') return fc.boolean();
  if (/email/i.test(name)) return fc.uuid().map((id) => `hostile-${id}@example.com`);
  if (name === 'from') return fc.constantFrom('BTC', 'ETH', 'USDTTRC20', 'UAH');
  if (name === 'to') return fc.constantFrom('USDTTRC20', 'BTC', 'EUR', 'CASHUSD');
  const words = WORDS[name];
  if (words) return fc.constantFrom(...words);
  if (/refund/i.test(name) && /address/i.test(name)) return fc.constantFrom(BTC, IBAN);
  if (/address|wallet/i.test(name)) return fc.constantFrom(TRC20, BTC);
  if (/iban/i.test(name)) return fc.constant(IBAN);
  if (/idempotency/i.test(name)) return fc.uuid();
  return fc.constantFrom('Test User', 'Savings', 'Hello, I need help with my order.', 'tx-123');
}

/** A hostile value of the right GraphQL type, chosen by what the argument means. */
function hostile(typeName: string, name: string): fc.Arbitrary<unknown> {
  switch (typeName) {
    case 'uuid':
      return hostileUuid;
    case 'numeric':
      return hostileNumeric;
    case 'Boolean':
      return fc.boolean();
    case 'Int':
      return fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2_147_483_647));
    default:
      break;
  }
  if (/email/i.test(name))
    return fc.oneof(
      hostileString(400),
      fc.constantFrom('a@b', '@x.y', 'x@y.z\u0000', `${'a'.repeat(250)}@example.com`),
    );
  if (name === 'from' || name === 'to') return currency;
  if (WORDS[name]) return unknownWord;
  if (/address|iban|wallet|memo/i.test(name))
    return fc.oneof(
      fc.constantFrom(
        `${TRC20}\u0000`,
        TRC20.toLowerCase(),
        `${IBAN} `,
        'DE00000000000000000000',
        `${BTC}x`,
      ),
      hostileString(2_000),
    );
  if (/token/i.test(name))
    return fc.oneof(
      fc.constantFrom('', '.', 'a.b', 'x'.repeat(5000), `${'A'.repeat(43)}.${'B'.repeat(43)}`),
      fc
        .tuple(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/))
        .map(([id, sig]) => `${Buffer.from(id).toString('base64url')}.${sig}`),
      hostileString(1_000),
    );
  if (/idempotency/i.test(name)) return hostileString(300);
  return fc.oneof(
    { weight: 4, arbitrary: hostileString(40_000) },
    { weight: 1, arbitrary: nastyString },
  );
}

/**
 * A value for an argument: plausible or hostile, about half each, so that a request usually
 * has a few hostile values among valid ones and reaches the checks past the first. Texts
 * holding U+0000 (refused by the actions service before anything else) are kept rare.
 */
function leaf(typeName: string, name: string): fc.Arbitrary<unknown> {
  const rareNul = hostile(typeName, name).chain((value) =>
    typeof value === 'string' && value.includes('\u0000')
      ? fc.constantFrom(value, value.replaceAll('\u0000', ''), value.replaceAll('\u0000', ''))
      : fc.constant(value),
  );
  return fc.oneof(plausible(typeName, name), rareNul);
}

/** An argument value for a type: input objects field by field, optional fields sometimes left out. */
function argument(type: GraphQLInputType, name: string, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return argument(type.ofType, name, depth);
  if (isListType(type)) return fc.array(argument(type.ofType, name, depth + 1), { maxLength: 3 });
  if (isInputObjectType(type) && depth < 3) {
    const fields = Object.values(type.getFields());
    return fc.record(
      Object.fromEntries(
        fields.map((field) => [field.name, argument(field.type, field.name, depth + 1)]),
      ),
      {
        requiredKeys: fields
          .filter((field) => isNonNullType(field.type))
          .map((field) => field.name),
      },
    );
  }
  if (isScalarType(type)) return leaf(type.name, name);
  return fc.constant(null);
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * A support request may carry a valid e-mail only when one of its texts holds U+0000 (which
 * the actions service must refuse); otherwise safeActionArgument breaks the e-mail.
 */
function supportInput(value: unknown, existingEmails: string[]): unknown {
  if (!value || typeof value !== 'object') return value;
  const input = value as Record<string, unknown>;
  const hasNul = Object.entries(input).some(
    ([key, text]) => key !== 'email' && typeof text === 'string' && text.includes('\u0000'),
  );
  if (hasNul && typeof input['email'] === 'string' && EMAIL.test(input['email'].trim()))
    return input;
  return safeActionArgument('submitSupportRequest', 'input', input, { existingEmails });
}

function actionShot(hostile: HostileStack): fc.Arbitrary<Shot> {
  const { schemas, actions, existingEmails } = hostile.context;
  const calls: Array<{
    role: Role;
    operation: 'query' | 'mutation';
    field: GraphQLField<unknown, unknown>;
  }> = [];
  for (const role of ROLES) {
    const schema = schemas[role];
    for (const [operation, root] of [
      ['query', schema.getQueryType()],
      ['mutation', schema.getMutationType()],
    ] as const) {
      for (const field of Object.values(root?.getFields() ?? {}))
        if (actions.has(field.name)) calls.push({ role, operation, field });
    }
  }
  return fc.constantFrom(...calls).chain(({ role, operation, field }) => {
    const args = field.args;
    const values = fc.record(
      Object.fromEntries(args.map((arg) => [arg.name, argument(arg.type, arg.name)])),
      { requiredKeys: args.filter((arg) => isNonNullType(arg.type)).map((arg) => arg.name) },
    );
    return values.map((raw): Shot => {
      const variables: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(raw)) {
        variables[name] =
          field.name === 'submitSupportRequest' && name === 'input'
            ? supportInput(value, existingEmails)
            : safeActionArgument(field.name, name, value, { existingEmails });
      }
      const named = getNamedType(field.type);
      const selection = isObjectType(named)
        ? ` { ${Object.values(named.getFields())
            .filter((item) => !isObjectType(getNamedType(item.type)))
            .map((item) => item.name)
            .join(' ')} }`
        : '';
      const present = args.filter((arg) => arg.name in variables);
      const definitions = present.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
      const call = present.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
      const query = `${operation}${definitions ? ` (${definitions})` : ''} { ${field.name}${call ? `(${call})` : ''}${selection} }`;
      const shot: Shot = {
        kind: field.name,
        role,
        method: 'POST',
        path: '/v1/graphql',
        headers: { 'content-type': 'application/json' },
        credentials: true,
        body: JSON.stringify({ query, variables }),
      };
      Object.defineProperty(shot, fc.toStringMethod, {
        enumerable: false,
        value: () => {
          const body = String(shot.body);
          return `${field.name} as ${role}: ${body.length > 500 ? `${body.slice(0, 500)}… (${body.length})` : body}`;
        },
      });
      return shot;
    });
  });
}

describe.each(databaseTargets)('hostile action inputs on $name', (target) => {
  let hostile: HostileStack;
  const tally = new Tally();
  let writes: unknown;
  let healthy = false;

  beforeAll(async () => {
    hostile = await startHostileStack(target);
  });
  afterAll(async () => {
    if (hostile && !healthy) healthy = await hostile.healthy();
    recordFigures({
      check: `hostile-actions:${target.name}`,
      figures: { fuzz_5xx: tally.failures + (healthy ? 0 : 1) },
      details: { seed: SEED, ...tally.summary(), healthyAfter: healthy, writes },
    });
    await hostile?.close();
  });

  it(`answers ${REQUESTS} calls of every action with hostile values by clear refusals, writing nothing`, async () => {
    const before: Snapshot = await snapshotTables(hostile.db.pool);
    const shot = actionShot(hostile);
    await fc.assert(
      fc.asyncProperty(
        fc.array(shot, { minLength: PARALLEL, maxLength: PARALLEL }),
        async (shots) => {
          const failures = tally.failures;
          await Promise.all(shots.map((item) => hostile.send(item, tally)));
          if (tally.failures > failures)
            throw new Error(`the product failed:\n${tally.examples.slice(-3).join('\n')}`);
        },
      ),
      { seed: SEED, numRuns: Math.ceil(REQUESTS / PARALLEL), endOnFailure: true },
    );
    healthy = await hostile.healthy();
    writes = changedTables(before, await snapshotTables(hostile.db.pool));
    expect(tally.failures, tally.examples.join('\n')).toBe(0);
    expect(healthy, '/healthz after the run').toBe(true);
    expect(writes, 'tables written by hostile action calls').toEqual({});
    // Every action was called (its kind is its name).
    expect(Object.keys(tally.byKind).sort()).toEqual([...hostile.context.actions].sort());
  });
});
