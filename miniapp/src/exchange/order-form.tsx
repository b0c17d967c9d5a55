import { Cell, Checkbox, List, Section, Text } from '@telegram-apps/telegram-ui';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';

import {
  createExchangeForm,
  emptyExchangeForm,
  EXCHANGE_FORM_FIELDS,
  type ExchangeFormField as Field,
  type ExchangeFormValues as Values,
  exchangeProblemMessage,
  validateForm,
  type FieldErrors,
} from '@app/shared/forms';
import { keyFromData, translateData } from '@app/client/i18n/i18n.ts';
import { localizePath, type Locale } from '@app/shared/i18n';
import {
  currencyLabel,
  type CurrencyOption,
  type QuoteResult,
  type QuoteSide,
  trimZeros,
} from '@app/shared/exchange';
import { orderLimits } from '@app/client/exchange/order-errors.ts';
import {
  CreateExchangeDocument,
  LastOrderContactDocument,
} from '@app/client/graphql/generated/user.ts';
import { graphqlRequest, GraphqlRequestError } from '@app/client/graphql/request.ts';

import { SectionHeading } from '../components/section-heading.tsx';
import { TextField } from '../components/text-field.tsx';
import { useMainButton } from '../components/use-main-button.ts';
import { browserEnv } from '../env.ts';
import { session, useSession } from '../session.ts';
import { signIn, signInStore } from '../sign-in.ts';
import { confirmClosing, haptic, openExternalLink } from '../telegram/sdk.ts';
import { ScanAddressButton } from './scan-address-button.tsx';
import { useWriteAccessAfterOrder } from './write-access.ts';

/** Resolves once the silent sign-in is over; rejects when it failed. */
async function signedIn(): Promise<void> {
  if (signInStore.getState().status === 'pending') await signIn();
  if (signInStore.getState().status !== 'signed-in') throw new Error('not signed in');
}

/**
 * The order's second step (spec sections 2 and 5): e-mail (the account's, or the last order's),
 * full name, the payout wallet (its network named) or IBAN, the reason, the notices and both
 * agreements, validated as on the web; the main button creates the order and opens it.
 */
export default function OrderForm(props: {
  from: CurrencyOption;
  to: CurrencyOption;
  side: QuoteSide;
  amount: string;
  quote: QuoteResult;
}) {
  const { from, to, quote } = props;
  const { t, i18n } = useTranslation('exchange');
  const [, navigate] = useLocation();
  const accountEmail = useSession((state) => state.user?.email ?? null);
  const [values, setValues] = useState<Values>(() => emptyExchangeForm(accountEmail ?? ''));
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  // One key per form: a second press or a retry after an error makes one order.
  const idempotencyKey = useRef<string | null>(null);
  const schema = createExchangeForm(to.kind);
  const askWriteAccess = useWriteAccessAfterOrder();

  // Prefill from the account, else from the person's last order (Telegram accounts have no e-mail).
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        await signedIn();
        const email = session.getState().user?.email;
        const last = await session
          .getState()
          .withAccessToken((token) =>
            graphqlRequest(
              browserEnv().PUBLIC_GRAPHQL_URL,
              LastOrderContactDocument,
              {},
              { token },
            ),
          );
        const previous = last.transactions[0];
        if (!live) return;
        setValues((current) => ({
          ...current,
          email: current.email || email || previous?.email || '',
          fullName: current.fullName || previous?.full_name || '',
        }));
      } catch {
        // Nothing to prefill: the person types it.
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  const set = (field: keyof Values, value: string | boolean) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field] !== undefined) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const fail = (message: string) => {
    haptic.error();
    setFormError(message);
  };

  const submit = async () => {
    if (pending) return;
    const parsed = validateForm(schema, values);
    if (!parsed.ok) {
      haptic.error();
      setErrors(parsed.errors);
      const problems: FieldErrors<Field> = parsed.errors;
      const first = EXCHANGE_FORM_FIELDS.find((field) => problems[field] !== undefined);
      document.getElementById(`order-${first ?? 'email'}`)?.focus();
      return;
    }
    setPending(true);
    setFormError(undefined);
    try {
      await signedIn();
      idempotencyKey.current ??= crypto.randomUUID();
      const input = {
        from: from.code,
        to: to.code,
        side: props.side,
        amount: props.amount,
        ...parsed.data,
        locale: i18n.language,
        idempotencyKey: idempotencyKey.current,
      };
      const result = await session
        .getState()
        .withAccessToken((token) =>
          graphqlRequest(
            browserEnv().PUBLIC_GRAPHQL_URL,
            CreateExchangeDocument,
            { input },
            { token },
          ),
        );
      const id = result.createExchange?.id;
      if (!id) throw new Error('no order was created');
      haptic.success();
      askWriteAccess();
      // The form's step is replaced: back from the order returns to the amounts, not the form.
      navigate(`/transaction/${id}`, { replace: true });
    } catch (error) {
      if (GraphqlRequestError.is(error)) {
        const fields = error.errors[0]?.extensions?.['fields'];
        if (error.code === 'validation-failed' && fields && typeof fields === 'object') {
          const mapped: FieldErrors<Field> = {};
          for (const [name, problem] of Object.entries(fields as Record<string, string>)) {
            mapped[name as Field] = exchangeProblemMessage(problem);
          }
          haptic.error();
          setErrors(mapped);
          return;
        }
        fail(
          translateData(
            t,
            [`home:widget.errors.${error.code ?? ''}`, 'common:notify.somethingWentWrong'],
            orderLimits(error),
          ),
        );
        return;
      }
      fail(t('common:notify.somethingWentWrong'));
    } finally {
      setPending(false);
    }
  };

  // Closing the app would lose what was typed: Telegram asks first.
  const typed = Object.values(values).some(
    (value) => typeof value === 'string' && value !== '' && value !== accountEmail,
  );
  useEffect(() => confirmClosing(typed), [typed]);

  useMainButton(
    {
      text: pending ? t('create.submitting') : t('create.submit'),
      enabled: true,
      loading: pending,
    },
    () => void submit(),
  );

  const rulesUrl = (path: string) =>
    `${browserEnv().PUBLIC_SITE_URL}${localizePath(path, i18n.language as Locale)}`;
  const text = (
    field: Field,
    label: string,
    extra: {
      hint?: string;
      maxLength: number;
      type?: string;
      autoComplete?: string;
      after?: ReactNode;
    },
  ) => (
    <TextField
      id={`order-${field}`}
      label={label}
      error={errors[field]}
      hint={extra.hint}
      type={extra.type ?? 'text'}
      autoComplete={extra.autoComplete ?? 'off'}
      maxLength={extra.maxLength}
      value={values[field] as string}
      onValue={(value) => set(field, value)}
      after={extra.after}
    />
  );

  return (
    <List>
      <h1 className="screen-title">
        {t('create.title', {
          send: currencyLabel(from.code, from),
          receive: currencyLabel(to.code, to),
        })}
      </h1>
      <Section header={<SectionHeading>{t('create.amountLegend')}</SectionHeading>}>
        <Cell
          subhead={t('create.youSend')}
        >{`${trimZeros(quote.sendAmount)} ${currencyLabel(from.code, from)}`}</Cell>
        <Cell
          subhead={t('create.youGet')}
        >{`${trimZeros(quote.receiveAmount)} ${currencyLabel(to.code, to)}`}</Cell>
      </Section>
      <Section header={<SectionHeading>{t('miniapp:exchange.details')}</SectionHeading>}>
        {text('email', t('create.email'), {
          hint: t('create.emailHint'),
          maxLength: 254,
          type: 'email',
          autoComplete: 'email',
        })}
        {text('fullName', t('create.fullName'), { maxLength: 200, autoComplete: 'name' })}
        {to.kind === 'crypto'
          ? text('walletAddress', t('create.walletAddress', { network: to.network ?? to.symbol }), {
              hint: t('create.walletHint', { currency: to.symbol }),
              maxLength: 128,
              after: (
                <ScanAddressButton
                  onAddress={(address) => set('walletAddress', address)}
                  onNoAddress={() =>
                    setErrors((current) => ({
                      ...current,
                      walletAddress: 'miniapp:exchange.scanNoAddress',
                    }))
                  }
                />
              ),
            })
          : to.kind === 'fiat'
            ? text('iban', t('create.iban'), { hint: t('create.ibanHint'), maxLength: 42 })
            : null}
        {text('reason', t('create.reason'), { hint: t('create.reasonHint'), maxLength: 1000 })}
        {to.kind === 'cash' ? <Text className="hint">{t('create.cashHint')}</Text> : null}
      </Section>
      <Section header={<SectionHeading>{t('create.noticesTitle')}</SectionHeading>}>
        <ul className="notices">
          <li>{t('create.notices.operator')}</li>
          <li>{t('create.notices.rate')}</li>
          <li>{t('create.notices.aml')}</li>
        </ul>
      </Section>
      <Section>
        <Agreement
          id="order-agreeTerms"
          checked={values.agreeTerms}
          error={errors.agreeTerms}
          onChange={(value) => set('agreeTerms', value)}
        >
          <Trans
            i18nKey="exchange:create.agreeTerms"
            components={{
              1: <RulesLink onOpen={() => openExternalLink(rulesUrl('/rules/exchange-rules'))} />,
            }}
          />
        </Agreement>
        <Agreement
          id="order-agreeAml"
          checked={values.agreeAml}
          error={errors.agreeAml}
          onChange={(value) => set('agreeAml', value)}
        >
          <Trans
            i18nKey="exchange:create.agreeAml"
            components={{
              1: <RulesLink onOpen={() => openExternalLink(rulesUrl('/rules/ml-kyc'))} />,
            }}
          />
        </Agreement>
      </Section>
      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}
    </List>
  );
}

function RulesLink(props: { onOpen: () => void; children?: ReactNode }) {
  return (
    <a
      href="#rules"
      className="link"
      onClick={(event) => {
        event.preventDefault();
        event.stopPropagation();
        props.onOpen();
      }}
    >
      {props.children}
    </a>
  );
}

function Agreement(props: {
  id: string;
  checked: boolean;
  error: string | undefined;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <Cell
        Component="label"
        htmlFor={props.id}
        multiline
        before={
          <Checkbox
            id={props.id}
            checked={props.checked}
            aria-invalid={props.error !== undefined}
            aria-describedby={props.error ? `${props.id}-error` : undefined}
            onChange={(event) => props.onChange(event.target.checked)}
          />
        }
      >
        {props.children}
      </Cell>
      {props.error ? (
        <p id={`${props.id}-error`} className="field-error">
          {t(keyFromData(props.error))}
        </p>
      ) : null}
    </div>
  );
}
