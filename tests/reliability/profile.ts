/*
 * How long and how hard the reliability checks run: `short` in CI (`.ci/run`), `full` with
 * `npm run test:reliability -- --full` (the 60 s of load and 5-minute soak).
 */

export type Profile = 'short' | 'full';

export const PROFILE: Profile = process.env['RELIABILITY_PROFILE'] === 'full' ? 'full' : 'short';

/** The value for the running profile. */
export const byProfile = <T>(values: { short: T; full: T }): T => values[PROFILE];
