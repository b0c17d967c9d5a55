-- Codes that confirm turning two-factor sign-in on or off, for accounts without a password
-- (issue 19): the wanted state is part of the purpose, so the code mailed for "turn off" cannot
-- turn it on, and neither can be redeemed at /login_with_2fa for a session.
ALTER TABLE auth.login_codes DROP CONSTRAINT login_codes_purpose_check;
ALTER TABLE auth.login_codes ADD CONSTRAINT login_codes_purpose_check
  CHECK (purpose IN ('login_2fa', 'quick_auth', 'two_factor_on', 'two_factor_off'));
