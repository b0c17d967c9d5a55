/*
 * The staff inbox's copy of a support request (hasura/actions/src/notifications/support.ts).
 * English only: it is for staff, whatever the language of the person who wrote.
 */
export const supportMail = {
  subject: 'Support request from {{from}}',
  subjectWithTopic: 'Support request from {{from}}: {{topic}}',
  intro: 'A new support request arrived.',
  none: '—',
  name: 'Name',
  email: 'E-mail',
  orderId: 'Order ID',
  topic: 'Subject',
  received: 'Received',
  request: 'Request',
  action: 'Support requests',
};
