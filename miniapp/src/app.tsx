import { AppRoot } from '@telegram-apps/telegram-ui';
import type { i18n } from 'i18next';
import { useEffect, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router';

import { OutsideTelegram } from './components/outside-telegram.tsx';
import { Shell } from './components/shell.tsx';
import { ExchangeScreen } from './screens/exchange-screen.tsx';
import { NotFoundScreen } from './screens/not-found-screen.tsx';
import type { Launch } from './telegram/launch.ts';
import { useTelegramDark } from './telegram/sdk.ts';

/*
 * The mini-app's routes (spec section 2): /telegram-app, /telegram-app/transaction/{id} and
 * /telegram-app/transactions-history, under the base path the server gave. The exchange is the
 * first screen and ships with the app; the order and history screens, which need the live
 * GraphQL client, are chunks loaded on first visit.
 */
function createRouter(basename: string) {
  return createBrowserRouter(
    [
      {
        element: <Shell />,
        children: [
          { index: true, element: <ExchangeScreen /> },
          {
            path: 'transaction/:id',
            lazy: async () => ({
              Component: (await import('./screens/transaction-screen.tsx')).TransactionScreen,
            }),
          },
          {
            path: 'transactions-history',
            lazy: async () => ({
              Component: (await import('./screens/history-screen.tsx')).HistoryScreen,
            }),
          },
          { path: '*', element: <NotFoundScreen /> },
        ],
      },
    ],
    { basename },
  );
}

/** Telegram's light or dark theme, live (not the portal's forced dark). */
function ThemedRoot({ children }: { children: React.ReactNode }) {
  const dark = useTelegramDark();
  return (
    <AppRoot appearance={dark ? 'dark' : 'light'} className="app-root">
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
  const [router] = useState(() => createRouter(props.basePath));
  const { onFirstPaint } = props;
  // Passive effects run after the browser has painted the first commit.
  useEffect(() => onFirstPaint(), [onFirstPaint]);
  return (
    <I18nextProvider i18n={props.i18n}>
      <ThemedRoot>
        {props.launch.kind === 'outside' ? <OutsideTelegram /> : <RouterProvider router={router} />}
      </ThemedRoot>
    </I18nextProvider>
  );
}
