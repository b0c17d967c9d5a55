/*
 * `@app/shared/errors`: the error catalog (codes, statuses, sensitivity, translation keys).
 * Browser-safe and text-free; servers take the messages from `@app/shared/errors/messages`.
 */
export * from './catalog.ts';
