import type { pages as en } from '../en/pages.ts';
import type { Messages } from '../../types.ts';

export const pages: Messages<typeof en> = {
  breadcrumbs: 'Навигационная цепочка',
  crumbs: {
    home: 'Главная',
    products: 'Продукты',
    partners: 'Партнёрам',
    rules: 'Правила',
  },
  howItWorks: 'Как это работает',
  requirements: 'Что понадобится',
  limits: 'Лимиты и сроки',
  faq: 'Частые вопросы',
  faqMore: 'Не нашли ответ?',
  faqContact: 'Напишите в поддержку',
  cta: {
    title: 'Готовы начать?',
    text: 'Обмен откроется с уже выбранной парой {{from}} → {{to}}. Пару и сумму можно изменить до создания заявки.',
    cash: 'наличные {{currency}}',
  },
  rules: {
    documents: 'Документы',
    related: 'Другие документы',
    open: 'Читать: {{title}}',
  },
};
