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
  /** A section that could not be loaded: load it again. */
  retry: 'Повторить',
  /** …or, where only a new page helps, reload the page. */
  reload: 'Перезагрузить',
  done: 'Готово.',
  failed: 'Не получилось: {{reason}}',
};
