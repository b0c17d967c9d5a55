DROP TABLE auth.rate_limits;
DROP TABLE auth.login_codes;
DROP TABLE auth.password_reset_tokens;
DROP TABLE auth.refresh_tokens;
DROP SCHEMA auth;
