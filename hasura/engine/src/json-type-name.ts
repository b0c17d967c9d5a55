/** The JSON kind of a value as Hasura names it in messages (`String`, `Number`, `Object`, ...). */
export function jsonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'Null';
  if (Array.isArray(value)) return 'Array';
  switch (typeof value) {
    case 'string':
      return 'String';
    case 'number':
      return 'Number';
    case 'boolean':
      return 'Boolean';
    default:
      return 'Object';
  }
}
