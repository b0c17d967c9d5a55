DROP TRIGGER portal_users_guard_unproven ON public.portal_users;
DROP FUNCTION public.guard_unproven_accounts();

ALTER TABLE auth.login_codes DROP COLUMN referrer_id;

ALTER TABLE public.portal_users DROP COLUMN session_epoch;
