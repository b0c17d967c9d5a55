/*
 * `@app/shared/forms`: the zod schemas of every client form and the mapping of server error
 * codes to translated messages. Browser-safe (no `node:*`).
 */
export * from './fields.ts';
export * from './patterns.ts';
export * from './auth.ts';
export * from './auth-errors.ts';
export * from './exchange.ts';
export * from './support.ts';
export * from './affiliate.ts';
export * from './anti-phishing.ts';
