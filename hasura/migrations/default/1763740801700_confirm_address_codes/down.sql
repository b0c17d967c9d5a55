UPDATE auth.login_codes SET purpose = 'login_2fa' WHERE purpose = 'confirm_address';
ALTER TABLE auth.login_codes DROP CONSTRAINT login_codes_purpose_check;
ALTER TABLE auth.login_codes ADD CONSTRAINT login_codes_purpose_check
  CHECK (purpose IN ('login_2fa', 'quick_auth', 'two_factor_on', 'two_factor_off'));
