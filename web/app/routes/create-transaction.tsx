import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { toFailure } from '@app/client/auth/session-types.ts';
import { browserEnv } from '@app/client/env/public-env.ts';
import { orderLimits } from '@app/client/exchange/order-errors.ts';
import { refusedLimit } from '@app/client/exchange/quote-refusal.ts';
import { useQuote } from '@app/client/exchange/use-quote.ts';
import { CreateExchangeDocument } from '@app/client/graphql/generated/user.ts';
import { graphqlRequest, GraphqlRequestError } from '@app/client/graphql/request.ts';
import { keyFromData, translateData } from '@app/client/i18n/i18n.ts';
import { CurrencyIcon } from '@app/client/ui/currency-icon.tsx';
import { WizardProgress } from '@app/client/ui/wizard-progress.tsx';
import {
  currencyLabel,
  type CurrencyOption,
  formatRateIn,
  isValidAmount,
  normalizeAmount,
  type QuoteResult,
  type QuoteSide,
  trimZeros,
} from '@app/shared/exchange';
import {
  authErrorMessage,
  createExchangeForm,
  emptyExchangeForm,
  type ExchangeFormField as Field,
  type ExchangeFormValues as Values,
  exchangeProblemMessage,
  validateForm,
  type FieldErrors,
} from '@app/shared/forms';
import { formatDateTime, formatDecimal, splitLocalePath } from '@app/shared/i18n';

import { CodeStep } from '#app/auth/code-step.tsx';
import { quickAuth, useSession, withAccessToken } from '#app/auth/session.ts';
import { useEarlyInput } from '#app/components/forms/use-early-input.ts';
import { parsePairSlug } from '#app/content/pairs.ts';
import { Agreement } from '#app/exchange/agreement.tsx';
import { AmountField } from '#app/exchange/amount-field.tsx';
import { loadExchangeCatalog } from '#app/exchange/catalog.server.ts';
import { OrderDetailsFields } from '#app/exchange/order-details-fields.tsx';
import {
  formLimits,
  LimitsLine,
  PairRateText,
  usePortalPairRate,
} from '#app/exchange/pair-rate.tsx';
import { useLocale, useLocalePath } from '#app/i18n/locale.ts';
import { pageMeta, translatorFor } from '#app/i18n/meta.ts';
import { siteUrlOf } from '#app/utils/public-env.ts';
import { notFound } from '#app/utils/not-found.ts';

import type { Route } from './+types/create-transaction';

/** The pair from the URL (`btc-to-xmr`) and an optional preset amount (`?side=send&amount=`). */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const pair = parsePairSlug(params.pear);
  const catalog = await loadExchangeCatalog(context.publicEnv.PUBLIC_GRAPHQL_URL);
  const from = catalog.currencies.find((currency) => currency.code === pair?.from);
  const to = catalog.currencies.find((currency) => currency.code === pair?.to);
  if (!pair || !from || !to || !(catalog.directions[from.code] ?? []).includes(to.code)) notFound();
  const search = new URL(request.url).searchParams;
  const side: QuoteSide = search.get('side') === 'receive' ? 'receive' : 'send';
  const amount = normalizeAmount(search.get('amount') ?? '');
  const typed = side === 'send' ? from : to;
  return { from, to, side, amount: isValidAmount(amount, typed.precision) ? amount : '' };
}

const label = (currency: CurrencyOption) => currencyLabel(currency.code, currency);

export const meta: Route.MetaFunction = ({ location, matches, loaderData }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  if (!loaderData) return [{ title: t('errors.notFoundTitle') }];
  const names = { send: label(loaderData.from), receive: label(loaderData.to) };
  return pageMeta({
    pathname: location.pathname,
    siteUrl: siteUrlOf(matches),
    title: t('exchange:create.metaTitle', names),
    description: t('exchange:create.metaDescription', names),
  });
};

/**
 * New exchange for a pair (spec section 2): the amount with a live quote, the person's details
 * and payout target, notices, both agreements. A visitor without an account is signed in by
 * quick-auth on the way (with the e-mailed code when the address already has an account).
 */
export default function CreateTransaction({ loaderData }: Route.ComponentProps) {
  const { from, to } = loaderData;
  const { t } = useTranslation('exchange');
  const locale = useLocale();
  const localePath = useLocalePath();
  const navigate = useNavigate();
  const user = useSession((state) => state.user);

  const [side, setSide] = useState<QuoteSide>(loaderData.side);
  const [typed, setTyped] = useState(loaderData.amount);
  const typedCurrency = side === 'send' ? from : to;
  const amount = normalizeAmount(typed);
  const amountValid = isValidAmount(amount, typedCurrency.precision);
  // Signed in, the quote and the rate carry the person's level and custom rates, as the order.
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const quote = useQuote({
    from: from.code,
    to: to.code,
    side,
    amount: amountValid ? amount : null,
    withAccessToken: isLoggedIn ? withAccessToken : null,
  });
  const ready = quote.status === 'ready' ? quote.quote : null;
  const pairRate = usePortalPairRate(from.code, to.code);
  const refused = amountValid ? refusedLimit(quote) : null;

  const [values, setValues] = useState<Values>(() => emptyExchangeForm(user?.email ?? ''));
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const [codeStep, setCodeStep] = useState(false);
  // One key per form: a repeated click or a retry after an error makes one order.
  const idempotencyKey = useRef<string | null>(null);

  const payoutKind = to.kind;
  // Issue 10: a memo for the payout where its network uses one; where a refund would go (an
  // address on the send network, with its memo, or an IBAN when paying by bank; none for cash).
  const payoutMemo = payoutKind === 'crypto' && (to.memoRequired ?? false);
  const refundKind = from.kind === 'cash' ? undefined : from.kind;
  const refundMemo = refundKind === 'crypto' && (from.memoRequired ?? false);
  const schema = createExchangeForm(payoutKind, {
    payoutMemo,
    ...(refundKind ? { refundKind } : {}),
    refundMemo,
  });

  // The accepted amounts, from the latest quote (kept while the next one loads or is refused),
  // or before any quote the pair's rate's (the tighter of both currencies, issue 23).
  const lastLimits = useRef<QuoteResult['limits'] | null>(null);
  if (ready) lastLimits.current = ready.limits;
  const limits = formLimits(lastLimits.current, pairRate, from.code, to.code, side);

  // The signed-in person's address once the session has loaded (it is not known on the
  // server), unless an address was typed already.
  const userEmail = user?.email;
  useEffect(() => {
    if (userEmail)
      setValues((current) => (current.email ? current : { ...current, email: userEmail }));
  }, [userEmail]);

  // What was typed before hydration, and a submit made then (decision 047).
  const formRef = useEarlyInput((typed) => {
    const { send, receive, ...fields } = typed;
    if (typeof send === 'string') {
      setSide('send');
      setTyped(send);
    } else if (typeof receive === 'string') {
      setSide('receive');
      setTyped(receive);
    }
    const known = Object.entries(fields).filter(([name]) => name in emptyExchangeForm(''));
    if (known.length > 0)
      setValues((current) => ({ ...current, ...(Object.fromEntries(known) as Partial<Values>) }));
  });

  const [submitOnQuote, setSubmitOnQuote] = useState(false);
  useEffect(() => {
    if (!submitOnQuote) return;
    if (quote.status === 'ready') {
      setSubmitOnQuote(false);
      formRef.current?.requestSubmit();
    } else if (quote.status === 'error') {
      setSubmitOnQuote(false);
    }
  }, [submitOnQuote, quote.status, formRef]);

  const setValue = (field: keyof Values) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.type === 'checkbox' ? event.target.checked : event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field] !== undefined) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const createOrder = async () => {
    const parsed = validateForm(schema, values);
    if (!parsed.ok || !ready) return;
    idempotencyKey.current ??= crypto.randomUUID();
    // A refund memo goes with a refund address only.
    const { refundMemo: memo, ...fields } = parsed.data;
    const input = {
      from: from.code,
      to: to.code,
      side,
      amount,
      ...fields,
      ...(memo && fields.refundAddress ? { refundMemo: memo } : {}),
      locale,
      idempotencyKey: idempotencyKey.current,
    };
    const result = await withAccessToken((token) =>
      graphqlRequest(browserEnv().PUBLIC_GRAPHQL_URL, CreateExchangeDocument, { input }, { token }),
    );
    const id = result.createExchange?.id;
    if (!id) throw new Error('no order was created');
    void navigate(localePath(`/transaction/${id}`));
  };

  const showFailure = (error: unknown) => {
    if (GraphqlRequestError.is(error)) {
      const fields = error.errors[0]?.extensions?.['fields'];
      if (error.code === 'validation-failed' && fields && typeof fields === 'object') {
        const mapped: FieldErrors<Field> = {};
        for (const [name, problem] of Object.entries(fields as Record<string, string>))
          mapped[name as Field] = exchangeProblemMessage(problem);
        setErrors(mapped);
        return;
      }
      const widgetKey = `home:widget.errors.${error.code ?? ''}`;
      setFormError(
        translateData(t, [widgetKey, 'common:notify.somethingWentWrong'], orderLimits(error)),
      );
      return;
    }
    // Auth service failures (quick-auth) carry codes the auth screens already translate.
    setFormError(t(keyFromData(authErrorMessage(toFailure(error).code))));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const result = validateForm(schema, values);
    if (result.ok && !ready && amountValid && quote.status !== 'error') {
      // The quote is on its way (a quick person, or a submit held before hydration): the
      // submit waits for it rather than being dropped.
      setSubmitOnQuote(true);
      return;
    }
    if (!result.ok || !ready) {
      setErrors(result.ok ? {} : result.errors);
      const first = result.ok ? 'send-amount' : `order-${Object.keys(result.errors)[0] ?? ''}`;
      document.getElementById(first)?.focus();
      return;
    }
    setPending(true);
    setFormError(undefined);
    try {
      if (!useSession.getState().isLoggedIn) {
        const signIn = await quickAuth(result.data.email);
        if (signIn.status === 'code-required') {
          setCodeStep(true);
          return;
        }
      }
      await createOrder();
    } catch (error) {
      showFailure(error);
    } finally {
      setPending(false);
    }
  };

  const title = t('create.title', { send: label(from), receive: label(to) });

  if (codeStep) {
    return (
      <main id="main" className="container section narrow">
        <WizardProgress current="creation" />
        <CodeStep
          headingLevel={1}
          backLabel={t('auth:code.backToOrder')}
          onBack={(reason) => {
            setCodeStep(false);
            if (reason) setFormError(t(keyFromData(reason)));
          }}
          onSignedIn={() => {
            setCodeStep(false);
            setPending(true);
            createOrder()
              .catch(showFailure)
              .finally(() => setPending(false));
          }}
        />
      </main>
    );
  }

  const errorOf = (field: Field) => errors[field];
  return (
    <main id="main" className="container section narrow">
      <WizardProgress current="creation" />
      <h1>{title}</h1>

      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        className="order-form"
      >
        <fieldset className="card order-form__amounts">
          <legend>{t('create.amountLegend')}</legend>
          <AmountField
            id="send-amount"
            name="send"
            label={t('create.youSend')}
            describedBy="order-limits"
            adornment={
              <span className="order-form__currency">
                <CurrencyIcon currency={from} size={20} />
                {label(from)}
              </span>
            }
            value={side === 'send' ? typed : ready ? trimZeros(ready.sendAmount) : ''}
            onChange={(value) => {
              setSide('send');
              setTyped(value);
            }}
          />
          <AmountField
            id="receive-amount"
            name="receive"
            label={t('create.youGet')}
            describedBy="order-limits"
            adornment={
              <span className="order-form__currency">
                <CurrencyIcon currency={to} size={20} />
                {label(to)}
              </span>
            }
            value={side === 'receive' ? typed : ready ? trimZeros(ready.receiveAmount) : ''}
            onChange={(value) => {
              setSide('receive');
              setTyped(value);
            }}
          />
          <p className="widget__status" role="status" aria-live="polite">
            {typed !== '' && !amountValid ? (
              <span className="field__error">{t('home:widget.errors.invalid')}</span>
            ) : quote.status === 'error' ? (
              <span className="field__error">
                {refused
                  ? t(`home:${refused.key}`, {
                      amount: formatDecimal(refused.limit, locale),
                      currency: refused.currency === from.code ? label(from) : label(to),
                    })
                  : t([
                      keyFromData(`home:widget.errors.${quote.code}`),
                      'common:notify.somethingWentWrong',
                    ])}
              </span>
            ) : quote.status === 'loading' ? (
              t('home:widget.quoting')
            ) : ready || pairRate.status === 'ready' ? (
              <>
                {pairRate.status === 'ready' ? (
                  <PairRateText state={pairRate} from={from} to={to} />
                ) : ready ? (
                  t('home:widget.rate', {
                    from: from.symbol,
                    to: to.symbol,
                    rate: formatRateIn(ready.rate, locale),
                  })
                ) : null}
                {ready?.processing.mode === 'next-window' && ready.processing.at ? (
                  <>
                    {' '}
                    {t('create.nextWindow', {
                      time: formatDateTime(ready.processing.at, locale),
                    })}
                  </>
                ) : null}
              </>
            ) : null}
          </p>
          <LimitsLine
            id="order-limits"
            className="field__hint order-form__limits"
            limits={limits}
            currency={label(typedCurrency)}
          />
        </fieldset>

        <OrderDetailsFields
          from={from}
          to={to}
          values={values}
          errors={errors}
          setValue={setValue}
          payoutMemo={payoutMemo}
          refundKind={refundKind}
          refundMemo={refundMemo}
        />

        <section className="card notices" aria-labelledby="notices-title">
          <h2 id="notices-title">{t('create.noticesTitle')}</h2>
          <ul>
            <li>{t('create.notices.operator')}</li>
            <li>{t('create.notices.rate')}</li>
            <li>{t('create.notices.aml')}</li>
          </ul>
        </section>

        <Agreement
          id="order-agreeTerms"
          name="agreeTerms"
          checked={values.agreeTerms}
          error={errorOf('agreeTerms')}
          onChange={setValue('agreeTerms')}
        >
          <Trans
            i18nKey="exchange:create.agreeTerms"
            components={{ 1: <Link to={localePath('/rules/exchange-rules')} /> }}
          />
        </Agreement>
        <Agreement
          id="order-agreeAml"
          name="agreeAml"
          checked={values.agreeAml}
          error={errorOf('agreeAml')}
          onChange={setValue('agreeAml')}
        >
          <Trans
            i18nKey="exchange:create.agreeAml"
            components={{ 1: <Link to={localePath('/rules/ml-kyc')} /> }}
          />
        </Agreement>

        {formError ? (
          <p className="form-message form-message--error" role="alert">
            {formError}
          </p>
        ) : null}

        <button
          type="submit"
          className="button button--primary button--block"
          disabled={pending || submitOnQuote}
        >
          {pending || submitOnQuote ? t('create.submitting') : t('create.submit')}
        </button>
      </form>
    </main>
  );
}
