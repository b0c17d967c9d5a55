import type { pages as en } from '../en/pages.ts';
import type { Messages } from '../../types.ts';

export const pages: Messages<typeof en> = {
  breadcrumbs: 'Навігаційний ланцюжок',
  crumbs: {
    home: 'Головна',
    products: 'Продукти',
    partners: 'Партнерам',
    rules: 'Правила',
  },
  howItWorks: 'Як це працює',
  requirements: 'Що знадобиться',
  limits: 'Ліміти та терміни',
  faq: 'Поширені запитання',
  faqMore: 'Не знайшли відповіді?',
  faqContact: 'Напишіть у підтримку',
  cta: {
    title: 'Готові почати?',
    text: 'Обмін відкриється з уже обраною парою {{from}} → {{to}}. Пару й суму можна змінити до створення заявки.',
    cash: 'готівка {{currency}}',
  },
  rules: {
    documents: 'Документи',
    related: 'Інші документи',
    open: 'Читати: {{title}}',
  },
};
