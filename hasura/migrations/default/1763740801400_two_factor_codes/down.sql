DELETE FROM auth.login_codes WHERE purpose IN ('two_factor_on', 'two_factor_off');
ALTER TABLE auth.login_codes DROP CONSTRAINT login_codes_purpose_check;
ALTER TABLE auth.login_codes ADD CONSTRAINT login_codes_purpose_check
  CHECK (purpose IN ('login_2fa', 'quick_auth'));
