/** The contact page (/contact): the support form and the other ways to reach support. */
export const contact = {
  metaTitle: 'Contact support',
  metaDescription:
    'Questions about an exchange or the service? Write to our support team, 24/7: by the form, by email or on Telegram.',
  title: 'Contact us',
  lead: 'Questions about an exchange or the service? Our support team works 24/7. Write to us through the form or reach us directly.',
  form: {
    title: 'Write to support',
    name: 'Name',
    email: 'Email',
    emailHint: 'We will answer to this address.',
    orderId: 'Order ID',
    orderIdHint: 'Optional: the number or ID of the exchange your question is about.',
    message: 'Message',
    submit: 'Send',
    errors: {
      tooLong: 'The text is too long',
    },
  },
  sent: {
    title: 'Your request has been sent',
    text: 'Thank you! We will answer to {{email}} as soon as possible.',
    notification: 'Your request has been sent. We will answer by email.',
    again: 'Send another request',
  },
  routes: {
    title: 'Other ways to reach us',
    email: 'Email',
    telegram: 'Telegram',
    telegramHint: 'Chat with support',
    channel: 'Telegram channel',
    channelHint: 'News and service updates',
    newWindow: '(opens in a new window)',
  },
} as const;
