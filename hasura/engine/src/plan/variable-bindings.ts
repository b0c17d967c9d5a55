import type { ValueRef } from '../schema/model.ts';

import type { Variables } from './values.ts';

/*
 * What makes a planned query reusable with other variable values (execute/query-cache.ts).
 *
 * The planner works on values: a variable's value is substituted into the arguments, checked
 * against its column's type and becomes a literal, which the compiler sends as a parameter.
 * While one query is planned, this records which variables only ever travelled that road: each
 * time a variable's value is placed in an argument (valueFromAst), and each time a literal is
 * made from exactly that value at exactly that place (`literal`, with the check that made it).
 * A variable whose every use was such a literal is a parameter of the compiled statement: a
 * later request binds its own value by re-running the same checks (`slots`). Any other use
 * (a limit, an `_is_null`, a JSON operator, an enum, a whole `where` object, a read this code
 * does not know about) leaves the variable shaping the plan, and the cache keys on its value.
 *
 * Every access to the variables object goes through a proxy, so a read by code that does not
 * report its uses can only make the cache more careful, never wrong.
 */

/** Turns a variable's raw value into the literal's value, with every check planning made. */
export type Coerce = (raw: unknown) => unknown;

export interface Slot {
  name: string;
  coerce: Coerce;
}

/** Values a variable may have and still be a parameter: scalars and lists of scalars. */
export function isParameterValue(value: unknown): boolean {
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return true;
  if (!Array.isArray(value)) return false;
  return value.every((item) => {
    const itemType = typeof item;
    return itemType === 'string' || itemType === 'number' || itemType === 'boolean';
  });
}

const increment = (counts: Map<string, number>, name: string) =>
  counts.set(name, (counts.get(name) ?? 0) + 1);

export class VariableBindings {
  /** The literals made from variables, in the order planning made (and checked) them. */
  readonly slots: Slot[] = [];
  /** The variables as planning sees them: every access is counted. */
  readonly variables: Variables;
  /** Argument path → the variable placed there ('' when two were). */
  private readonly placed = new Map<string, string>();
  private readonly accessed = new Map<string, number>();
  private readonly placements = new Map<string, number>();
  private readonly bound = new Map<string, number>();
  private enumerated = false;

  constructor(private readonly raw: Variables) {
    this.variables = new Proxy(raw, {
      get: (target, key, receiver) => {
        if (typeof key === 'string') increment(this.accessed, key);
        return Reflect.get(target, key, receiver) as unknown;
      },
      has: (target, key) => {
        if (typeof key === 'string') increment(this.accessed, key);
        return Reflect.has(target, key);
      },
      ownKeys: (target) => {
        this.enumerated = true;
        return Reflect.ownKeys(target);
      },
      getOwnPropertyDescriptor: (target, key) => {
        this.enumerated = true;
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
    });
  }

  /** valueFromAst substituted variable `name` at argument path `path`. */
  placedAt(name: string, path: string): void {
    increment(this.placements, name);
    const earlier = this.placed.get(path);
    this.placed.set(path, earlier === undefined || earlier === name ? name : '');
  }

  /**
   * The literal for the argument value `raw` at `path`: `coerce(raw)`, remembered as a slot
   * when `raw` is, unchanged, the variable placed there.
   */
  literal(raw: unknown, path: string, coerce: Coerce): ValueRef {
    const value = coerce(raw);
    const name = this.placed.get(path);
    if (!name || !Object.is(this.raw[name], raw) || !isParameterValue(raw))
      return { kind: 'literal', value };
    increment(this.bound, name);
    this.slots.push({ name, coerce });
    return { kind: 'literal', value, slot: this.slots.length - 1 };
  }

  /** Whether planning never looked at the variable (it cannot have shaped the plan). */
  isUnused(name: string): boolean {
    return !this.enumerated && !this.accessed.has(name) && !this.placements.has(name);
  }

  /** Whether every use of the variable was a literal remembered as a slot. */
  isParameter(name: string): boolean {
    if (this.enumerated || !isParameterValue(this.raw[name])) return false;
    const bound = this.bound.get(name) ?? 0;
    return (
      bound > 0 && this.placements.get(name) === bound && (this.accessed.get(name) ?? 0) === bound
    );
  }
}

/** The literal for `raw` at `path`: through the bindings when planning records them. */
export function literalFrom(
  bindings: VariableBindings | undefined,
  raw: unknown,
  path: string,
  coerce: Coerce,
): ValueRef {
  return bindings ? bindings.literal(raw, path, coerce) : { kind: 'literal', value: coerce(raw) };
}
