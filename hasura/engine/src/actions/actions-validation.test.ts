import { describe, expect, it } from 'vitest';

import { asUser, useActionsWorld } from './actions-world.ts';

/*
 * Requests refused before the handler is called: actions the role may not see, arguments and
 * selections that do not fit the action's types, transforms this engine does not apply.
 */

const { gql, received } = useActionsWorld();

describe('actions: permissions and validation', () => {
  it('hides actions the role has no permission for', async () => {
    const { body } = await gql('query { get_users { id } }', { headers: asUser('1') });
    expect(body).toEqual({
      errors: [
        {
          message: "field 'get_users' not found in type: 'query_root'",
          extensions: { path: '$.selectionSet.get_users', code: 'validation-failed' },
        },
      ],
    });
    const mutation = await gql('mutation { create_user(name: "x") { id } }', {
      headers: asUser('1'),
    });
    expect(
      (mutation.body['errors'] as Array<{ extensions: { code: string } }>)[0]!.extensions.code,
    ).toBe('validation-failed');
    expect(received).toHaveLength(0);
  });

  it.each([
    ['query { echo { note } }', "missing required field 'id'", '$.selectionSet.echo.args.id'],
    [
      'query { echo(id: "x") { note } }',
      "expected a 32-bit integer for type 'Int', but found a string",
      '$.selectionSet.echo.args.id',
    ],
    [
      'query { echo(id: null) { note } }',
      "expected a 32-bit integer for type 'Int', but found null",
      '$.selectionSet.echo.args.id',
    ],
    [
      'query { echo(id: 1, nope: 1) { note } }',
      "'echo' has no argument named 'nope'",
      '$.selectionSet.echo',
    ],
    [
      'query { echo(id: 1, tags: [1]) { note } }',
      "expected a string for type 'String', but found an integer",
      '$.selectionSet.echo.args.tags[0]',
    ],
    [
      'query { echo(id: 1, tags: [null]) { note } }',
      "expected a string for type 'String', but found null",
      '$.selectionSet.echo.args.tags[0]',
    ],
    [
      'query { echo(id: 1, filter: {age: 3}) { note } }',
      "missing required field 'name'",
      '$.selectionSet.echo.args.filter.name',
    ],
    [
      'query { echo(id: 1, filter: {name: "a", bad: 1}) { note } }',
      "field 'bad' not found in type: 'UserFilter'",
      '$.selectionSet.echo.args.filter.bad',
    ],
    [
      'query { echo(id: 1, filter: {name: "a", parent: 3}) { note } }',
      "expected an object for type 'UserFilter', but found an integer",
      '$.selectionSet.echo.args.filter.parent',
    ],
    [
      'query { echo(id: 1, mood: ANGRY) { note } }',
      'expected one of the values HAPPY, SAD for type \'Mood\', but found "ANGRY"',
      '$.selectionSet.echo.args.mood',
    ],
    [
      'query { echo(id: 1, mood: "HAPPY") { note } }',
      "expected an enum value for type 'Mood', but found a string",
      '$.selectionSet.echo.args.mood',
    ],
    [
      'query { echo(id: 1) { nope } }',
      "field 'nope' not found in type: 'EchoOut'",
      '$.selectionSet.echo.selectionSet.nope',
    ],
    ['query { echo(id: 1) }', 'missing selection set for "EchoOut"', '$.selectionSet.echo'],
    [
      'query { scalar_action { x } }',
      'unexpected subselection set for non-object field',
      '$.selectionSet.scalar_action',
    ],
  ])('refuses %s', async (query, message, path) => {
    const { status, body } = await gql(query);
    expect(status).toBe(200);
    expect(body).toEqual({
      errors: [{ message, extensions: { path, code: 'validation-failed' } }],
    });
    expect(received).toHaveLength(0);
  });

  it('refuses actions with request or response transforms instead of calling them untransformed', async () => {
    const { body } = await gql('query { transformed { id } }');
    expect(body).toEqual({
      errors: [
        {
          message:
            "action 'transformed' uses response_transform, which this engine does not support",
          extensions: { path: '$.selectionSet.transformed', code: 'not-supported' },
        },
      ],
    });
    expect(received).toHaveLength(0);
  });

  it('refuses an Int outside 32 bits as parse-failed', async () => {
    const { body } = await gql('query { echo(id: 3000000000) { note } }');
    expect(body).toEqual({
      errors: [
        {
          message:
            'The value 3.0e9 lies outside the bounds or is not an integer. Maybe it is a float, or is there integer overflow?',
          extensions: { path: '$.selectionSet.echo.args.id', code: 'parse-failed' },
        },
      ],
    });
  });

  it('checks variables like literals', async () => {
    const { body } = await gql('query ($f: UserFilter) { echo(id: 1, filter: $f) { note } }', {
      variables: { f: { name: 1 } },
    });
    expect(body).toEqual({
      errors: [
        {
          message: "expected a string for type 'String', but found an integer",
          extensions: { path: '$.selectionSet.echo.args.filter.name', code: 'validation-failed' },
        },
      ],
    });
  });
});
