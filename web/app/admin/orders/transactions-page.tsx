import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { Tabs } from '#app/account/tabs.tsx';

import { OrdersView } from './orders-view.tsx';
import { WithdrawalsView } from './withdrawals-view.tsx';

type View = 'orders' | 'withdrawals';

/**
 * /admin/transactions: the orders queue (the default) and the affiliate bonus withdrawals, two
 * tabs whose choice is in the address (`?view=withdrawals`), like every filter on the page.
 */
export function TransactionsPage() {
  const { t } = useTranslation('staffOrders');
  const [searchParams, setSearchParams] = useSearchParams();
  const view: View = searchParams.get('view') === 'withdrawals' ? 'withdrawals' : 'orders';

  const select = (next: View) => {
    if (next === view) return;
    // Another section starts from its first page; Back returns to this one as it was.
    setSearchParams(next === 'withdrawals' ? { view: next } : {}, { preventScrollReset: true });
  };

  return (
    <main id="main" className="container section staff-orders">
      <h1>{t('title')}</h1>
      <Tabs<View>
        idPrefix="staff-orders"
        label={t('views.label')}
        selected={view}
        onSelect={select}
        tabs={[
          { id: 'orders', label: t('views.orders'), panel: <OrdersView /> },
          { id: 'withdrawals', label: t('views.withdrawals'), panel: <WithdrawalsView /> },
        ]}
      />
    </main>
  );
}
