DROP TRIGGER bank_accounts_details_fixed ON public.bank_accounts;
DROP FUNCTION public.bank_accounts_details_fixed();
DROP TABLE public.support_feedback;
DROP VIEW public.transaction_status_counts;
DROP INDEX public.portal_users_telegram_username_trgm_idx;
DROP INDEX public.portal_users_email_trgm_idx;
DROP INDEX public.transactions_email_trgm_idx;
DROP INDEX public.transactions_direction_created_idx;
-- Fails (and the rollback with it) if something outside these migrations uses pg_trgm.
DROP EXTENSION IF EXISTS pg_trgm;
