import type { AuthChangeListener, SessionState } from '../auth/session-types.ts';

import { createWsClients, type WsClients } from './ws-client.ts';

/**
 * What the GraphQL clients need of a session: where the engine is, the token (refreshed when
 * due, with the invalid-jwt rule) and its changes. The portal and the mini-app each have one
 * session store; each makes one of these from it.
 */
export interface GraphqlSession {
  graphqlUrl(): string;
  hasToken(): boolean;
  getAccessToken(): Promise<string | null>;
  withAccessToken<T>(run: (token: string) => Promise<T>): Promise<T>;
  onAuthChange(listener: AuthChangeListener): () => void;
  /** The session's websocket clients, one per acting role. */
  wsClient: WsClients;
}

export function graphqlSessionOf(
  store: { getState(): SessionState },
  graphqlUrl: () => string,
): GraphqlSession {
  const base = {
    graphqlUrl,
    hasToken: () => store.getState().accessToken !== null,
    getAccessToken: () => store.getState().getAccessToken(),
    withAccessToken: <T>(run: (token: string) => Promise<T>) =>
      store.getState().withAccessToken(run),
    onAuthChange: (listener: AuthChangeListener) => store.getState().onAuthChange(listener),
  };
  return { ...base, wsClient: createWsClients(base) };
}
