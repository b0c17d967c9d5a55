import type { staff as en } from '../en/staff.ts';
import type { Messages } from '../../types.ts';

export const staff: Messages<typeof en> = {
  actions: {
    back: 'Назад',
    working: 'Виконується…',
    save: 'Зберегти',
    edit: 'Змінити',
    close: 'Закрити',
    apply: 'Застосувати',
    reset: 'Скинути фільтри',
  },
  table: {
    empty: 'Тут поки нічого немає.',
    noMatches: 'Під ці фільтри нічого не підходить.',
  },
  /** A section that could not be loaded: load it again. */
  retry: 'Спробувати ще раз',
  /** …or, where only a new page helps, reload the page. */
  reload: 'Перезавантажити',
  done: 'Готово.',
  failed: 'Не вдалося: {{reason}}',
};
