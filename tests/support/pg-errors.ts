import { expect } from 'vitest';

/** SQLSTATE codes the schema's rules raise. */
export const PG = {
  uniqueViolation: '23505',
  checkViolation: '23514',
  foreignKeyViolation: '23503',
  notNullViolation: '23502',
} as const;

/** Asserts that a statement is refused by the database with the given SQLSTATE. */
export async function expectRefused(
  statement: Promise<unknown>,
  code: string,
  message?: RegExp | string,
): Promise<void> {
  const error = await statement.then(
    () => undefined,
    (reason: unknown) => reason as { code?: string; message?: string },
  );
  expect(error, 'the database accepted a row it must refuse').toBeDefined();
  expect(error?.code).toBe(code);
  if (message !== undefined) expect(error?.message).toMatch(message);
}
