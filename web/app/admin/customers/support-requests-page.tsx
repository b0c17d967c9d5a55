import { useMutation, useQuery } from '@apollo/client/react';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import {
  StaffCustomersMarkHandledDocument,
  StaffCustomersSupportOrdersDocument,
  StaffCustomersSupportRequestsDocument,
  type StaffCustomersSupportRequestsQuery,
} from '@app/client/graphql/generated/manager.ts';

import { formatDateTime, PAGE_SIZE, pageCount, pageFromSearch } from '#app/account/format.ts';
import { Pagination } from '#app/account/pagination.tsx';
import { InputField, SelectField } from '#app/admin/fields.tsx';
import { EmptyState, Loading, RetryButton } from '#app/admin/states.tsx';
import { notify } from '#app/components/notify/index.ts';
import { useLocale, useLocalePath } from '#app/i18n/locale.ts';

import { FeedbackForm, type FeedbackDraft } from './feedback-form.tsx';
import { replySubject } from './feedback.ts';
import {
  filtersFromSearch,
  orderReference,
  searchOfFilters,
  supportWhere,
  type HandledFilter,
  type SupportFilters,
} from './support-filters.ts';

type SupportRequest = StaffCustomersSupportRequestsQuery['support_requests'][number];

/**
 * /admin/support-requests: the customers' requests, newest first, twenty a page on the server,
 * filtered by handled or not and the days they arrived (all in the address); each with what the
 * customer wrote, who handled it and the feedback already sent; mark handled or not; and the
 * feedback form, which a Reply fills with the request's e-mail.
 */
export function SupportRequestsPage() {
  const { t } = useTranslation('staffCustomers');
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = filtersFromSearch(searchParams);
  const page = pageFromSearch(searchParams);
  // The filters are plain strings: the where object changes only when one of them does.
  const where = useMemo(
    () => supportWhere({ handled: filters.handled, from: filters.from, to: filters.to }),
    [filters.handled, filters.from, filters.to],
  );
  const list = useQuery(StaffCustomersSupportRequestsDocument, {
    variables: { where, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
    notifyOnNetworkStatusChange: true,
  });
  const [draft, setDraft] = useState<{ key: number; value: FeedbackDraft }>({
    key: 0,
    value: { email: '', subject: '' },
  });

  const requests = list.data?.support_requests;
  const total = list.data?.support_requests_aggregate.aggregate?.count ?? 0;

  const reply = (request: SupportRequest) =>
    setDraft((current) => ({
      key: current.key + 1,
      value: {
        email: request.email,
        subject: replySubject(request.subject, t('feedback.defaultSubject')),
        request: { id: request.id, label: requestLabel(request) },
        focus: true,
      },
    }));
  const requestLabel = (request: SupportRequest) =>
    t('support.requestLabel', { name: request.name ?? request.email, email: request.email });

  const applyFilters = (next: SupportFilters) => setSearchParams(searchOfFilters(next));
  const filtered = filters.handled !== 'all' || filters.from !== '' || filters.to !== '';

  let content;
  if (list.error) {
    content = (
      <EmptyState title={t('support.loadFailed')} alert>
        <RetryButton onRetry={() => void list.refetch()} />
      </EmptyState>
    );
  } else if (!requests) {
    content = <Loading className="staff-customers__status" />;
  } else if (requests.length === 0) {
    content = (
      <EmptyState
        title={
          total > 0
            ? t('support.pageEmpty')
            : filtered
              ? t('staff:table.noMatches')
              : t('support.empty')
        }
      >
        {total > 0 || filtered ? (
          <Link
            className="button"
            to={{ search: total > 0 ? searchOfFilters(filters).toString() : '' }}
          >
            {total > 0 ? t('support.firstPage') : t('staff:actions.reset')}
          </Link>
        ) : null}
      </EmptyState>
    );
  } else {
    content = (
      <RequestList requests={requests} onReply={reply} onChanged={() => void list.refetch()} />
    );
  }

  return (
    <main id="main" className="container section account-page staff-customers">
      <div className="account-page__header">
        <h1>{t('support.title')}</h1>
      </div>
      <p className="lead">{t('support.lead')}</p>
      <div className="support-layout">
        <div className="support-layout__list">
          <FiltersForm key={searchParams.toString()} filters={filters} onApply={applyFilters} />
          {requests ? (
            <p className="staff-customers__count" aria-live="polite">
              {t('support.count', { count: total })}
            </p>
          ) : null}
          {content}
          {total > PAGE_SIZE || page > 1 ? (
            <Pagination page={page} pages={pageCount(total)} total={total} />
          ) : null}
        </div>
        <div className="support-layout__form">
          <FeedbackForm
            key={draft.key}
            draft={draft.value}
            onSent={() => void list.refetch()}
            onDetach={() =>
              setDraft((current) => ({
                key: current.key + 1,
                value: { email: current.value.email, subject: current.value.subject },
              }))
            }
          />
        </div>
      </div>
    </main>
  );
}

function FiltersForm({
  filters,
  onApply,
}: {
  filters: SupportFilters;
  onApply: (filters: SupportFilters) => void;
}) {
  const { t } = useTranslation('staffCustomers');
  const [values, setValues] = useState(filters);
  const [rangeError, setRangeError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (values.from && values.to && values.from > values.to) {
      setRangeError('staffCustomers:support.filters.rangeError');
      document.getElementById('support-to')?.focus();
      return;
    }
    onApply(values);
  };

  return (
    <form
      className="card staff-filters"
      role="search"
      aria-label={t('support.filters.label')}
      noValidate
      onSubmit={onSubmit}
    >
      <SelectField
        id="support-handled"
        name="handled"
        label={t('support.filters.handled')}
        value={values.handled}
        options={[
          { value: 'all', label: t('support.filters.all') },
          { value: 'no', label: t('support.filters.notHandled') },
          { value: 'yes', label: t('support.filters.handledOnly') },
        ]}
        onChange={(event) =>
          setValues((current) => ({ ...current, handled: event.target.value as HandledFilter }))
        }
      />
      <InputField
        id="support-from"
        name="from"
        type="date"
        label={t('support.filters.from')}
        value={values.from}
        onChange={(event) => {
          const from = event.target.value;
          setValues((current) => ({ ...current, from }));
          setRangeError(undefined);
        }}
      />
      <InputField
        id="support-to"
        name="to"
        type="date"
        label={t('support.filters.to')}
        value={values.to}
        error={rangeError}
        translateError
        onChange={(event) => {
          const to = event.target.value;
          setValues((current) => ({ ...current, to }));
          setRangeError(undefined);
        }}
      />
      <div className="staff-filters__actions">
        <button type="submit" className="button button--primary">
          {t('staff:actions.apply')}
        </button>
        <Link className="button" to={{ search: '' }}>
          {t('staff:actions.reset')}
        </Link>
      </div>
    </form>
  );
}

function RequestList({
  requests,
  onReply,
  onChanged,
}: {
  requests: SupportRequest[];
  onReply: (request: SupportRequest) => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation('staffCustomers');
  const [numbers, ids] = useMemo(() => {
    const found = requests.map((request) => orderReference(request.order_id));
    return [
      found.flatMap((reference) => (reference && 'number' in reference ? [reference.number] : [])),
      found.flatMap((reference) => (reference && 'id' in reference ? [reference.id] : [])),
    ];
  }, [requests]);
  const orders = useQuery(StaffCustomersSupportOrdersDocument, {
    variables: { numbers, ids },
    skip: numbers.length === 0 && ids.length === 0,
  });
  const known = orders.data?.transactions ?? [];
  const [mark, { loading: marking }] = useMutation(StaffCustomersMarkHandledDocument);
  const [markingId, setMarkingId] = useState<string | undefined>();

  const toggle = (request: SupportRequest) => {
    setMarkingId(request.id);
    mark({ variables: { id: request.id, handled: !request.handled } })
      .then(() => {
        notify.success(
          request.handled ? t('support.markedNotHandled') : t('support.markedHandled'),
        );
        onChanged();
      })
      .catch(() => notify.error(t('support.markFailed')))
      .finally(() => setMarkingId(undefined));
  };

  return (
    <ol className="support-list" aria-label={t('support.listLabel')}>
      {requests.map((request) => {
        const reference = orderReference(request.order_id);
        const order = reference
          ? known.find((row) =>
              'number' in reference ? row.number === reference.number : row.id === reference.id,
            )
          : undefined;
        return (
          <li key={request.id}>
            <RequestCard
              request={request}
              orderNumber={order?.number}
              busy={marking && markingId === request.id}
              onReply={() => onReply(request)}
              onToggle={() => toggle(request)}
            />
          </li>
        );
      })}
    </ol>
  );
}

function RequestCard({
  request,
  orderNumber,
  busy,
  onReply,
  onToggle,
}: {
  request: SupportRequest;
  orderNumber: string | undefined;
  busy: boolean;
  onReply: () => void;
  onToggle: () => void;
}) {
  const { t } = useTranslation('staffCustomers');
  const locale = useLocale();
  const to = useLocalePath();
  const titleId = `request-${request.id}`;
  const account = request.user
    ? (request.user.email ??
      (request.user.telegram_username ? `@${request.user.telegram_username}` : null))
    : null;

  return (
    <article className="card support-request" aria-labelledby={titleId}>
      <header className="support-request__header">
        <h2 id={titleId} className="support-request__title">
          {request.name ?? request.email}
        </h2>
        <span
          className={`status ${request.handled ? 'support-status--handled' : 'support-status--open'}`}
        >
          {request.handled ? t('support.handled') : t('support.notHandled')}
        </span>
      </header>
      <dl className="support-request__facts">
        <div>
          <dt>{t('support.email')}</dt>
          <dd>{request.email}</dd>
        </div>
        <div>
          <dt>{t('support.account')}</dt>
          <dd>{account ?? t('support.noAccount')}</dd>
        </div>
        <div>
          <dt>{t('support.orderId')}</dt>
          <dd>
            {orderNumber ? (
              <Link
                to={`${to('/admin/transactions')}?${new URLSearchParams({ number: orderNumber }).toString()}`}
              >
                {t('support.orderLink', { number: orderNumber })}
              </Link>
            ) : (
              (request.order_id ?? '—')
            )}
          </dd>
        </div>
        <div>
          <dt>{t('support.receivedAt')}</dt>
          <dd>
            <time dateTime={request.created_at}>{formatDateTime(request.created_at, locale)}</time>
          </dd>
        </div>
        <div>
          <dt>{t('support.handledBy')}</dt>
          <dd>
            {request.handled && request.handled_at
              ? t('support.handledByAt', {
                  who: request.handled_by_user?.email ?? t('support.someone'),
                  at: formatDateTime(request.handled_at, locale),
                })
              : '—'}
          </dd>
        </div>
      </dl>
      {request.subject ? (
        <p className="support-request__subject">
          <strong>{t('support.subject')}:</strong> {request.subject}
        </p>
      ) : null}
      <p className="support-request__message">{request.message}</p>
      {request.feedback.length > 0 ? (
        <section className="support-request__feedback" aria-labelledby={`${titleId}-feedback`}>
          <h3 id={`${titleId}-feedback`}>
            {t('support.feedbackSent', { count: request.feedback.length })}
          </h3>
          <ul>
            {request.feedback.map((mail) => (
              <li key={mail.id}>
                <p>
                  <strong>{mail.subject}</strong>{' '}
                  {t('support.feedbackMeta', {
                    to: mail.email,
                    who: mail.sent_by_user?.email ?? t('support.someone'),
                    at: formatDateTime(mail.sent_at, locale),
                  })}
                </p>
                <details>
                  <summary>{t('support.feedbackMessage')}</summary>
                  <p className="support-request__message">{mail.message}</p>
                </details>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="support-request__actions">
        <button type="button" className="button button--small button--primary" onClick={onReply}>
          {t('support.reply')}
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={onToggle}
          disabled={busy}
          aria-busy={busy || undefined}
        >
          {request.handled ? t('support.markNotHandled') : t('support.markHandled')}
        </button>
      </div>
    </article>
  );
}
