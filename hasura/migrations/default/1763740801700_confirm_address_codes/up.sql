-- A code that proves an unproven account's address from that account's own session gets its
-- own purpose (issue 19): under the sign-in purpose, the used-up proof counted as the last
-- sign-in code sent, and a two-factor sign-in within the 60 s resend cooldown got 429.
ALTER TABLE auth.login_codes DROP CONSTRAINT login_codes_purpose_check;
ALTER TABLE auth.login_codes ADD CONSTRAINT login_codes_purpose_check
  CHECK (purpose IN ('login_2fa', 'quick_auth', 'confirm_address', 'two_factor_on', 'two_factor_off'));
