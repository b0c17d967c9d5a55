import { invalidInput } from '../http/arguments.ts';

/** A plain positive decimal as the engine forwards a `numeric` argument (its digits). */
const AMOUNT = /^\d{1,40}(\.\d{1,40})?$/;

/** An optional positive amount argument, as its exact digits. */
export function amountArgument(input: Record<string, unknown>, name: string): string | undefined {
  const value = input[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !AMOUNT.test(value) || !/[1-9]/.test(value))
    throw invalidInput(`${name}: expected a positive amount.`, name);
  return value;
}
