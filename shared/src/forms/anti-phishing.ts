import * as z from 'zod/mini';

import { MESSAGES } from './fields.ts';

/*
 * The anti-phishing phrase of Settings (issue 10), on the portal and in the mini-app: 4 to 64
 * characters once trimmed, as the database's CHECK on portal_users.anti_phishing_phrase wants.
 */

export const PHRASE_MIN = 4;
export const PHRASE_MAX = 64;

export const PHRASE_MESSAGES = {
  tooShort: 'trust:phishing.tooShort',
  tooLong: 'trust:phishing.tooLong',
} as const;

export const AntiPhishingForm = z.object({
  phrase: z.string({ error: MESSAGES.required }).check(
    z.trim(),
    z.minLength(1, MESSAGES.required),
    z.refine((value) => value === '' || value.length >= PHRASE_MIN, PHRASE_MESSAGES.tooShort),
    z.maxLength(PHRASE_MAX, PHRASE_MESSAGES.tooLong),
  ),
});
