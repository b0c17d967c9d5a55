import { useEffect, useState } from 'react';

import type { QuoteResult, QuoteSide } from '@app/shared/exchange';

import { QuoteDocument } from '../graphql/generated/anonymous.ts';
import { graphqlRequest, GraphqlRequestError } from '../graphql/request.ts';
import { browserEnv } from '../env/public-env.ts';

/** Typing pauses this long before a quote is asked for. */
export const QUOTE_DEBOUNCE_MS = 350;

export type QuoteState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; quote: QuoteResult }
  | { status: 'error'; code: string };

export interface QuoteRequest {
  from: string;
  to: string;
  side: QuoteSide;
  /** A valid amount, or null when there is nothing to quote. */
  amount: string | null;
  token?: string | null;
}

/**
 * The live quote for what the person typed: asked after a pause, the previous request aborted,
 * so only the answer to the latest input is ever shown.
 */
export function useQuote({ from, to, side, amount, token }: QuoteRequest): QuoteState {
  const [state, setState] = useState<QuoteState>({ status: 'idle' });

  useEffect(() => {
    if (amount === null || from === to) {
      setState({ status: 'idle' });
      return;
    }
    setState({ status: 'loading' });
    const controller = new AbortController();
    const timer = setTimeout(() => {
      graphqlRequest(
        browserEnv().PUBLIC_GRAPHQL_URL,
        QuoteDocument,
        { input: { from, to, side, amount } },
        { token: token ?? null, signal: controller.signal },
      ).then(
        ({ quote }) =>
          setState(
            quote
              ? { status: 'ready', quote: quote as QuoteResult }
              : { status: 'error', code: 'unexpected' },
          ),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState({
            status: 'error',
            code: GraphqlRequestError.is(error) ? (error.code ?? 'unexpected') : 'network',
          });
        },
      );
    }, QUOTE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [from, to, side, amount, token]);

  return state;
}
