import type { Messages } from '../../../types.ts';
import type { receipt as en } from '../en/receipt.ts';

export const receipt: Messages<typeof en> = {
  cashReference: 'Референс выплаты',
  memo: 'Memo / тег',
  orderId: 'Идентификатор заявки',
  cash: 'наличные',
  footer: 'Время указано в UTC. Сохраните эту квитанцию.',
};
