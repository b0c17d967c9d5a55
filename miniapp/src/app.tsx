import { AppRoot } from '@telegram-apps/telegram-ui';
import type { i18n } from 'i18next';
import { lazy, useEffect } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { I18nextProvider } from 'react-i18next';
import { Route, Router, Switch } from 'wouter';

import { OutsideTelegram } from './components/outside-telegram.tsx';
import { RouteError } from './components/route-error.tsx';
import { Shell } from './components/shell.tsx';
import { recordDepth } from './navigation.ts';
import { receiptPath, SETTINGS_PATH } from './paths.ts';
import { ExchangeScreen } from './screens/exchange-screen.tsx';
import { NotFoundScreen } from './screens/not-found-screen.tsx';
import type { Launch } from './telegram/launch.ts';
import { uiPlatform, useTelegramDark } from './telegram/sdk.ts';

/*
 * The mini-app's routes (spec section 2): /telegram-app, /telegram-app/transaction/{id} and
 * /telegram-app/transactions-history, under the base path the server gave; and what a Telegram
 * account cannot do on the portal (issue 22): /settings and /transaction/{id}/receipt. The
 * exchange is the first screen and ships with the app; the other screens, which need the live
 * GraphQL client, are chunks loaded on first visit. The router is wouter (a few KB): the app
 * needs paths, parameters and history, not a data router.
 */
const TransactionScreen = lazy(async () => ({
  default: (await import('./screens/transaction-screen.tsx')).TransactionScreen,
}));
const HistoryScreen = lazy(async () => ({
  default: (await import('./screens/history-screen.tsx')).HistoryScreen,
}));
const SettingsScreen = lazy(async () => ({
  default: (await import('./screens/settings-screen.tsx')).SettingsScreen,
}));
const ReceiptScreen = lazy(async () => ({
  default: (await import('./screens/receipt-screen.tsx')).ReceiptScreen,
}));

/**
 * Telegram's light or dark theme, live (not the portal's forced dark), and the look of the
 * person's Telegram client (telegram-ui reads it from Telegram's own script, which this app
 * does not load, so it is passed from the launch parameters).
 */
function ThemedRoot({
  platform,
  children,
}: {
  platform: 'ios' | 'base';
  children: React.ReactNode;
}) {
  const dark = useTelegramDark();
  return (
    <AppRoot appearance={dark ? 'dark' : 'light'} platform={platform} className="app-root">
      {children}
    </AppRoot>
  );
}

export function App(props: {
  launch: Launch;
  i18n: i18n;
  basePath: string;
  onFirstPaint: () => void;
}) {
  const { onFirstPaint } = props;
  // Passive effects run after the browser has painted the first commit.
  useEffect(() => onFirstPaint(), [onFirstPaint]);
  return (
    <I18nextProvider i18n={props.i18n}>
      <ThemedRoot
        platform={uiPlatform(
          props.launch.kind === 'telegram' ? props.launch.telegram.platform : undefined,
        )}
      >
        {props.launch.kind === 'outside' ? (
          <OutsideTelegram />
        ) : (
          <Router base={props.basePath} aroundNav={recordDepth}>
            <ErrorBoundary FallbackComponent={RouteError}>
              <Shell>
                <Switch>
                  <Route path="/" component={ExchangeScreen} />
                  <Route path="/transaction/:id" component={TransactionScreen} />
                  <Route path={receiptPath(':id')} component={ReceiptScreen} />
                  <Route path="/transactions-history" component={HistoryScreen} />
                  <Route path={SETTINGS_PATH} component={SettingsScreen} />
                  <Route component={NotFoundScreen} />
                </Switch>
              </Shell>
            </ErrorBoundary>
          </Router>
        )}
      </ThemedRoot>
    </I18nextProvider>
  );
}
