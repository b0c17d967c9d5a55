/**
 * Whether the database refused a change because the account's e-mail is not confirmed yet
 * (decision 016: an unproven account may not set the anti-phishing phrase, the referral name or
 * two-factor authentication). The refusal is a check violation whose message starts with
 * `email-not-confirmed`, behind the engine's "Check constraint violation." prefix; it arrives
 * as our GraphqlRequestError or as Apollo's CombinedGraphQLErrors, both with `errors`.
 */
export function isEmailNotConfirmed(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const errors: unknown = (error as { errors?: unknown }).errors;
  const messages = Array.isArray(errors)
    ? errors.map((entry: unknown) => (entry as { message?: unknown } | null)?.message)
    : [];
  return [error.message, ...messages].some(
    (message) => typeof message === 'string' && /\bemail-not-confirmed\b/.test(message),
  );
}
