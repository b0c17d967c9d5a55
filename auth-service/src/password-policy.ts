import { AuthError } from './errors.ts';

/*
 * Our password policy (the spec leaves it open; SECURITY.md 13): 10 to 128 characters
 * (code points), at least two of lowercase, uppercase, digits and other characters, and not
 * the e-mail address or its local part. Long passphrases in one script pass: "correct horse
 * battery staple" mixes letters and spaces.
 */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 128;

export function checkPasswordPolicy(password: string, email: string | null): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH)
    throw new AuthError('password-too-short', { field: 'password' });
  if (length > MAX_PASSWORD_LENGTH) throw new AuthError('password-too-long', { field: 'password' });
  const classes = [/\p{Ll}/u, /\p{Lu}/u, /\p{Nd}/u, /[^\p{Ll}\p{Lu}\p{Nd}]/u].filter((pattern) =>
    pattern.test(password),
  ).length;
  if (classes < 2) throw new AuthError('password-too-simple', { field: 'password' });
  if (email) {
    const lowered = password.trim().toLowerCase();
    const local = email.slice(0, email.lastIndexOf('@'));
    if (lowered === email.toLowerCase() || lowered === local.toLowerCase()) {
      throw new AuthError('password-is-email', { field: 'password' });
    }
  }
}

/** The forms send a confirmation; when present it must match (spec section 5 wording). */
export function checkConfirmation(password: string, confirmation: string | undefined): void {
  if (confirmation !== undefined && confirmation !== password) {
    throw new AuthError('passwords-do-not-match', { field: 'confirmPassword' });
  }
}
