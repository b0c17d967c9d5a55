DROP TRIGGER roles_not_sandbox_account ON public.roles;
DROP TRIGGER sandbox_accounts_not_staff ON bot.sandbox_accounts;
DROP FUNCTION bot.refuse_staff_sandbox_account();
-- The accounts stay (they are ordinary accounts); only the record of where they came from goes.
-- The administrator's old sandbox link is not restored.
DROP TABLE bot.sandbox_accounts;
