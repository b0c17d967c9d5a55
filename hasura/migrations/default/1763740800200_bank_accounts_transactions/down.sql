DROP TABLE public.transaction_status_history;
DROP TABLE public.transactions;
DROP FUNCTION public.transactions_record_status();
DROP FUNCTION public.transactions_guard();
DROP FUNCTION public.transaction_transition_allowed(text, text);
DROP TABLE public.bank_accounts;
