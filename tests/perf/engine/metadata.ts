import { fileURLToPath } from 'node:url';

import { loadMetadata, type Metadata } from '@app/engine';

import { DEV_JWT_SECRET } from '../../support/jwt.ts';

/*
 * The product metadata (hasura/metadata) has no permissions yet. The benchmark adds the ones
 * a signed-in user will have, so requests go through JWT verification and permission filters
 * the way real clients' requests will:
 *   transactions: select (own rows, every column), insert (own rows; user_id preset);
 *   currencies: select (every row).
 */

export const METADATA_DIR = fileURLToPath(new URL('../../../hasura/metadata/', import.meta.url));
export const ADMIN_SECRET = 'bench-admin-secret';
export const JWT_SECRET = DEV_JWT_SECRET;

const INSERTABLE = [
  'send_currency',
  'receive_currency',
  'send_amount',
  'receive_amount',
  'rate',
  'email',
  'full_name',
  'wallet_address',
  'iban',
  'reason',
  'locale',
  'source',
  'idempotency_key',
];

export async function benchMetadata(): Promise<Metadata> {
  const metadata = await loadMetadata({ directory: METADATA_DIR });
  const source = metadata.sources[0];
  if (!source) throw new Error('the product metadata has no database source');
  const table = (name: string) => {
    const found = source.tables.find(
      (entry) => entry.table.schema === 'public' && entry.table.name === name,
    );
    if (!found) throw new Error(`the product metadata does not track public.${name}`);
    return found;
  };
  const transactions = table('transactions');
  const currencies = table('currencies');
  const own = { user_id: { _eq: 'X-Hasura-User-Id' } };
  transactions.select_permissions = [
    {
      role: 'user',
      permission: { columns: '*', filter: own, allow_aggregations: false, computed_fields: [] },
    },
  ];
  transactions.insert_permissions = [
    {
      role: 'user',
      permission: {
        check: own,
        set: { user_id: 'X-Hasura-User-Id' },
        columns: INSERTABLE,
        backend_only: false,
      },
    },
  ];
  currencies.select_permissions = [
    {
      role: 'user',
      permission: { columns: '*', filter: {}, allow_aggregations: false, computed_fields: [] },
    },
  ];
  return metadata;
}
