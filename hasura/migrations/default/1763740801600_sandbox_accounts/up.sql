-- The Telegram sandbox's accounts (issue 19, point 2; docs/decisions/014-telegram-bot.md).
--
-- In development the bot runs a Telegram sandbox and the web server signs launch data with the
-- public development bot token, so a "Telegram user" there proves nothing. The accounts made
-- that way are recorded here: the sandbox's demo users, which the bot creates, and every account
-- the auth service creates from initData signed with the development token. They are ordinary
-- accounts, never staff; the launcher and the bot remove them whenever the stack starts without
-- the sandbox, and the auth service refuses them outside it.
CREATE TABLE bot.sandbox_accounts (
  user_id    uuid PRIMARY KEY REFERENCES public.portal_users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A sandbox account is never staff, whoever writes: no role for a sandbox account, and no
-- staff account becomes one.
CREATE FUNCTION bot.refuse_staff_sandbox_account() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_TABLE_NAME = 'roles'
        AND EXISTS (SELECT 1 FROM bot.sandbox_accounts s WHERE s.user_id = NEW.user_id))
     OR (TG_TABLE_NAME = 'sandbox_accounts'
        AND EXISTS (SELECT 1 FROM public.roles r WHERE r.user_id = NEW.user_id)) THEN
    RAISE EXCEPTION 'sandbox-account: an account of the Telegram sandbox is never staff'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'sandbox_accounts_not_staff';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER roles_not_sandbox_account
  BEFORE INSERT OR UPDATE OF user_id ON public.roles
  FOR EACH ROW EXECUTE FUNCTION bot.refuse_staff_sandbox_account();
CREATE TRIGGER sandbox_accounts_not_staff
  BEFORE INSERT OR UPDATE OF user_id ON bot.sandbox_accounts
  FOR EACH ROW EXECUTE FUNCTION bot.refuse_staff_sandbox_account();

-- The sandbox used to link the first administrator to its staff chat's Telegram user
-- (100000099), so anyone who could present that id (the development token is public; in
-- production, the real Telegram user with that id) signed in as the administrator. No staff
-- account keeps that link; staff who really have that Telegram id link it again.
UPDATE public.portal_users u SET telegram_id = NULL, telegram_username = NULL
 WHERE u.telegram_id = 100000099
   AND EXISTS (SELECT 1 FROM public.roles r WHERE r.user_id = u.id);
