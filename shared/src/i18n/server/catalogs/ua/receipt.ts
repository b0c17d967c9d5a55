import type { Messages } from '../../../types.ts';
import type { receipt as en } from '../en/receipt.ts';

export const receipt: Messages<typeof en> = {
  cashReference: 'Референс виплати',
  memo: 'Memo / тег',
  orderId: 'Ідентифікатор заявки',
  cash: 'готівка',
  footer: 'Час указано в UTC. Збережіть цю квитанцію.',
};
