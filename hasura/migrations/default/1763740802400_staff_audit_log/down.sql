DROP TRIGGER portal_users_staff_audit ON public.portal_users;
DROP TRIGGER affiliate_settings_staff_audit ON public.affiliate_settings;
DROP TRIGGER user_levels_staff_audit ON public.user_levels;
DROP TRIGGER roles_staff_audit ON public.roles;
DROP TRIGGER user_custom_carrency_staff_audit ON public.user_custom_carrency;
DROP TRIGGER bank_accounts_staff_audit ON public.bank_accounts;
DROP FUNCTION public.staff_audit_record();
DROP FUNCTION public.staff_audit_row(jsonb, text[]);
-- DROP TABLE fires no row or TRUNCATE trigger: the log goes with the migration.
DROP TABLE public.staff_audit_log;
DROP FUNCTION public.staff_audit_log_append_only();
