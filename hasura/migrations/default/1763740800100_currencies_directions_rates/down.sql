DROP TABLE public.user_custom_carrency;
DROP TABLE public.rates;
DROP TABLE public.exchange_directions;
DROP TABLE public.currencies;
