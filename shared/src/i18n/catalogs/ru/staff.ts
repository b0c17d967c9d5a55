import type { staff as en } from '../en/staff.ts';
import type { Messages } from '../../types.ts';

export const staff: Messages<typeof en> = {
  actions: {
    back: 'Назад',
    working: 'Выполняется…',
    save: 'Сохранить',
    edit: 'Изменить',
    close: 'Закрыть',
    apply: 'Применить',
    reset: 'Сбросить фильтры',
  },
  table: {
    empty: 'Здесь пока ничего нет.',
    noMatches: 'Под эти фильтры ничего не подходит.',
  },
  done: 'Готово.',
  failed: 'Не получилось: {{reason}}',
};
