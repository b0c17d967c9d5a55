import { databaseRefusal } from '@app/shared/errors/database';

/**
 * Whether the database refused a change because the account's e-mail is not confirmed yet
 * (decision 016: an unproven account may not set the anti-phishing phrase, the referral name or
 * two-factor authentication): the trigger's `email-not-confirmed` refusal (decision 032), as our
 * GraphqlRequestError or as Apollo's CombinedGraphQLErrors.
 */
export const isEmailNotConfirmed = (error: unknown): boolean =>
  databaseRefusal(error) === 'email-not-confirmed';
