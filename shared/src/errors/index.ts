/*
 * `@app/shared/errors`: the error catalog (codes, statuses, sensitivity, translation keys) and
 * its messages. Browser-safe.
 */
export * from './catalog.ts';
export * from './messages.ts';
