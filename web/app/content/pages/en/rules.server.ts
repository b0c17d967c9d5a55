import type { RulesCatalog } from '../types.ts';
import { faq, limits } from './blocks.server.ts';

/** The rules overview and its three documents in English (spec sections 2 and 9). */
export const rules: RulesCatalog = {
  overview: {
    title: 'Service rules',
    metaTitle: 'Service rules: processing, timing, rates and AML checks',
    metaDescription:
      'How exchanges are processed: operator details in 2–10 minutes, UAH and cash directions 09:00–23:00 Kyiv time, rates fixed at order creation, AML freezing, levels.',
    lead: 'How the service works in short: how orders are processed and when, at what rate, and what happens when a payment needs an AML check. The full documents are listed below.',
    sections: [
      {
        heading: 'Orders are semi-automatic',
        paragraphs: [
          'Every order is handled by an operator. After you create it, the operator supplies the payment details, usually within 2–10 minutes: a wallet address, or bank details with the beneficiary, account number, SWIFT/BIC, bank address and a payment reference. You pay; the service then sends the payout and shows its transaction ID.',
        ],
      },
      {
        heading: 'Order statuses',
        bullets: [
          'Waiting for operator: the payment details are being prepared; the page refreshes by itself.',
          'Waiting for payment: the details are on the order page. You may still cancel the order.',
          'Paid: your payment has arrived and the service is sending the payout.',
          'Completed: the payout is sent and its transaction ID is shown.',
          'Canceled: the order is closed; create a new one from the main page.',
        ],
      },
      {
        heading: 'Processing time',
        bullets: [limits.operator, limits.crypto, limits.window],
      },
      {
        heading: 'Rates and levels',
        paragraphs: [
          'The rate is fixed when the order is created. The margin in it depends on your level, which grows with completed orders and never goes down: new, bronze from 5 completed orders, silver from 20, gold from 50 and platinum from 150.',
        ],
      },
      {
        heading: 'AML checks',
        paragraphs: [
          'Incoming crypto is checked under our AML/CTF policy. Funds of suspicious origin, and funds from sanctioned platforms, are frozen while the case is investigated, and we may ask you for KYC information.',
        ],
      },
      {
        heading: 'Affiliate program',
        paragraphs: [
          'Invite others with your referral link and receive 0.5% of the USDT value of their completed orders. Bonuses are paid in USDT on TRC20; the minimum withdrawal is 100 USDT.',
        ],
      },
      {
        heading: 'Support',
        paragraphs: [
          'Write to us through the contact form (with your order number), by e-mail or in Telegram. One request per minute can be sent through the form.',
        ],
      },
    ],
    steps: [],
    requirements: [],
    limits: [],
    faq: [
      {
        q: 'How do I accept the rules?',
        a: 'In the order form, by ticking the two agreements: the exchange terms and rules, and the AML/CTF and KYC policies. An order cannot be created without them.',
      },
      {
        q: 'Which time zone do the hours refer to?',
        a: 'Kyiv time, UTC+3. Directions with UAH or cash are processed from 09:00 to 23:00; orders created after 22:30 wait until the next morning.',
      },
      {
        q: 'What if I sent a different amount than the order says?',
        a: 'Write to support with the order number. The operator handles such orders individually and contacts you at the order’s e-mail.',
      },
      faq.support,
    ],
    cta: null,
  },

  documents: {
    'exchange-rules': {
      title: 'Exchange rules',
      metaTitle: 'Exchange rules: orders, statuses, rates and timing',
      metaDescription:
        'The rules for every exchange order: what the order needs, how statuses change, when rates are fixed, processing times and the daily window, cancellation, levels and bonuses.',
      lead: 'The rules that apply to every exchange order on the website and in the Telegram mini-app: what an order needs, how it moves through its statuses, and what each side does.',
      sections: [
        {
          heading: '1. Scope',
          paragraphs: [
            'These rules apply to every order created on the website or in the Telegram mini-app. You accept them for an order by ticking “exchange terms and rules” in the order form. The AML/CTF and KYC policy and the privacy policy apply alongside them.',
          ],
        },
        {
          heading: '2. Creating an order',
          bullets: [
            'An order needs your e-mail, your full name, the payout details and a reason (the purpose of the exchange or payment).',
            'The payout goes to a wallet address for crypto (USDT on the TRC20 network) or to an IBAN for bank currencies; cash is handed over at a cash point.',
            'You are responsible for the payout details you enter. A payout sent to a wrong address or IBAN that you gave cannot be recovered.',
            'No separate registration is needed: the order signs you in with your e-mail, and a known address is confirmed with a 6-digit code.',
          ],
        },
        {
          heading: '3. Rate and amounts',
          paragraphs: [
            'The rate and both amounts are fixed when the order is created and do not change with the market afterwards. The exchange form shows the minimum and maximum amount of each currency. Send exactly the amount of the order, in its currency and network; if a different amount arrives, the operator handles the order individually and contacts you at its e-mail.',
          ],
        },
        {
          heading: '4. Statuses',
          bullets: [
            'Waiting for operator: the operator prepares the payment details, usually within 2–10 minutes.',
            'Waiting for payment: the details (a wallet address, or bank details with beneficiary, account number, SWIFT/BIC, bank address and payment reference) are on the order page and in your e-mail.',
            'Paid: your payment has arrived; the service is sending the payout.',
            'Completed: the payout has been sent; the order shows its transaction ID.',
            'Canceled: the order is closed and will not be processed.',
          ],
        },
        {
          heading: '5. Processing times',
          bullets: [
            limits.operator,
            limits.crypto,
            limits.window,
            'When a bank transfer is credited after it is sent depends on the banks involved.',
          ],
        },
        {
          heading: '6. Paying',
          bullets: [
            'Pay exactly the amount shown, and only to the details of this order; details from an earlier order may no longer be valid.',
            'For a bank payment, include the payment reference so it can be matched to your order.',
            'Pay from a wallet or account you control. Payments from third parties may be checked under the AML/CTF and KYC policy.',
          ],
        },
        {
          heading: '7. Cancellation',
          paragraphs: [
            'You may cancel an order while it is waiting for payment. Once you have paid, do not cancel; write to support with the order number instead. The service may cancel an order with a stated reason, for example when no payment arrives; you receive the reason by e-mail.',
          ],
        },
        {
          heading: '8. Levels',
          paragraphs: [
            'Every account has a level with its own margin: new, bronze from 5 completed orders, silver from 20, gold from 50 and platinum from 150. The level rises automatically when an order completes and never goes down.',
          ],
        },
        {
          heading: '9. Affiliate program',
          bullets: [
            'A visit through your referral link is remembered for 30 days; orders of the users who sign up then bring you bonuses.',
            'The bonus is 0.5% of the USDT value of each completed order of your referrals. The service may change the rate; bonuses already credited keep the rate they were credited at.',
            'Bonuses are withdrawn in USDT on TRC20, from 100 USDT and up to your available balance.',
          ],
        },
        {
          heading: '10. AML and support',
          paragraphs: [
            'Incoming crypto is checked under the AML/CTF policy, and suspicious funds are frozen while they are investigated. Questions and complaints go to support through the contact form, by e-mail or in Telegram; the form accepts one request per minute.',
          ],
        },
      ],
      steps: [],
      requirements: [],
      limits: [],
      faq: [
        {
          q: 'Can the rate change after I pay?',
          a: 'No. The rate is fixed when the order is created, whatever the market does afterwards.',
        },
        {
          q: 'I sent crypto on the wrong network. What now?',
          a: 'Write to support at once with the order number and the transaction ID. Funds sent on another network cannot always be recovered, so always check the network of the address before paying.',
        },
        {
          q: 'My order was canceled, but I had already paid.',
          a: 'Write to support with the order number and the transaction ID or bank confirmation. The operator checks the payment and tells you how it will be settled.',
        },
        {
          q: 'How long does a referral link work?',
          a: 'A visit through it is remembered for 30 days in the visitor’s browser. A new visit through another link replaces it.',
        },
        faq.levels,
      ],
      cta: null,
    },

    'ml-kyc': {
      title: 'AML/CTF and KYC policy',
      metaTitle: 'AML/CTF and KYC policy: checks, freezing and documents',
      metaDescription:
        'How we prevent money laundering and terrorist financing: checks on incoming crypto, freezing of suspicious funds during an investigation, and what KYC may ask for.',
      lead: 'How we prevent money laundering and terrorist financing: what we check, when funds are frozen and what we may ask you to provide.',
      sections: [
        {
          heading: 'Why we check',
          paragraphs: [
            'The service must not be used to launder the proceeds of crime, to finance terrorism or to evade sanctions. By ticking “AML/CTF and KYC policies” in the order form you accept the checks described here.',
          ],
        },
        {
          heading: 'What is checked',
          bullets: [
            'Every incoming crypto transfer is screened for links to sanctioned platforms and addresses, darknet markets, fraud, hacks and stolen funds.',
            'Orders and bank payments are monitored for unusual patterns, such as payments from third parties or amounts split to stay below limits.',
          ],
        },
        {
          heading: 'Freezing of funds',
          paragraphs: [
            'When a transfer is flagged, the funds are frozen for the time of the investigation: the order does not move on and no payout is made. Funds from sanctioned platforms are always frozen. We tell you at the order’s e-mail and may ask for the information below.',
            'When the check confirms that the funds are legitimate, the order is processed. When it does not, or the information is refused, the funds stay frozen and we act as the law requires, which can include reporting to the competent authorities.',
          ],
        },
        {
          heading: 'KYC: what we may ask for',
          bullets: [
            'An identity document (passport or ID card) and a photo of you holding it.',
            'Proof of the origin of the funds: the exchange or wallet they came from, transaction history, sale contracts, payslips.',
            'An explanation of the purpose of the exchange.',
            'For companies: registration documents and the beneficial owner.',
          ],
        },
        {
          heading: 'What we do not accept',
          bullets: [
            'Funds of sanctioned persons, platforms or jurisdictions.',
            'Proceeds of crime, fraud or extortion.',
            'Orders on behalf of third parties that you do not disclose.',
            'Splitting amounts to avoid checks.',
          ],
        },
        {
          heading: 'Timing and your data',
          paragraphs: [
            'We ask only for what the case needs and review documents as quickly as we can; how long an investigation takes depends on the case and on how quickly you answer. Documents are used only for the check and are kept as the privacy policy describes.',
          ],
        },
      ],
      steps: [],
      requirements: [],
      limits: [],
      faq: [
        {
          q: 'Will I be asked for documents on every order?',
          a: 'No. Most orders need nothing beyond the order form. We ask for KYC information only when a check requires it.',
        },
        {
          q: 'How long can funds stay frozen?',
          a: 'For the time of the investigation. It depends on the case and on how quickly you provide what we ask; write to support with the order number to follow it.',
        },
        {
          q: 'My funds are clean. Why were they flagged?',
          a: 'Screening looks at the history of the coins, not at you. Coins that passed through a risky address at some point can be flagged; information on where you got them usually settles it.',
        },
        {
          q: 'Does the check apply to the Stealth Virtual Card?',
          a: 'The card is issued without verification, but crypto that tops it up passes the same AML check as any incoming transfer.',
        },
        {
          q: 'Do you report to the authorities?',
          a: 'Where the law requires it, yes. We do not share information about clients otherwise.',
        },
      ],
      cta: null,
    },

    'privacy-policy': {
      title: 'Privacy policy',
      metaTitle: 'Privacy policy: what data we collect and why',
      metaDescription:
        'What personal data the exchange collects (account, orders, support, affiliate), cookies and local storage, who receives data, how long it is kept and your rights.',
      lead: 'What personal data the service collects, why, who receives it, how long it is kept and how to reach us about it.',
      sections: [
        {
          heading: 'What we collect',
          bullets: [
            'Account: e-mail address, password (stored only as a one-way hash), the two-factor setting, your level and, if you sign in through Telegram, your Telegram ID.',
            'Orders: e-mail, full name, the payout wallet address or IBAN, the reason you give, currencies, amounts, statuses and dates.',
            'Support requests: name, e-mail, order number, subject and message.',
            'Affiliate program: your referral name, the users you referred (shown to you masked), bonuses and withdrawals.',
            'KYC documents, only when they are requested under the AML/CTF and KYC policy.',
            'Technical data: IP address (used, for example, to limit sign-in attempts and support requests) and browser language.',
          ],
        },
        {
          heading: 'Why we use it',
          bullets: [
            'To carry out your orders and pay out to the details you give.',
            'To sign you in and protect the account: e-mailed codes, limits on attempts, ending other sessions after a password change.',
            'To notify you by e-mail (and in Telegram, if you use it) at each step of an order.',
            'To meet our AML/CTF obligations.',
            'To answer support requests and keep the affiliate program’s accounts.',
          ],
        },
        {
          heading: 'Cookies and local storage',
          bullets: [
            '“locale”: the language you chose, for 365 days.',
            '“referral_code”: the referral code of a link you followed, for 30 days.',
            '“accessToken” and “refreshToken”: your sign-in, in the browser’s local storage; the access token may instead be kept in a secure cookie for up to 7 days.',
            'A live-chat widget of a third-party provider loads after the page opens and processes the messages you write in the chat.',
          ],
        },
        {
          heading: 'Who receives data',
          paragraphs: [
            'Banks and payment partners receive what a payment or payout needs, such as the beneficiary’s name and IBAN. E-mail delivery and live-chat providers process data on our behalf. Authorities receive data where the law requires it. We do not sell personal data.',
          ],
        },
        {
          heading: 'How long we keep it',
          paragraphs: [
            'Order and AML records are kept for as long as anti-money-laundering law requires; account data while you use the account; support requests for as long as it takes to handle them.',
          ],
        },
        {
          heading: 'Your rights',
          paragraphs: [
            'You may ask to see, correct or delete your data and object to its use. Write to support through the contact form or by e-mail. Records we are required to keep, such as completed orders, are kept for the required period even after an account is deleted.',
          ],
        },
      ],
      steps: [],
      requirements: [],
      limits: [],
      faq: [
        {
          q: 'Do you sell my data?',
          a: 'No. Data goes only to those who need it to carry out your order or whom the law names.',
        },
        {
          q: 'Why do you need my full name?',
          a: 'It is part of every order: bank payouts need the beneficiary’s name, and the operator and AML checks need to know who the order belongs to.',
        },
        {
          q: 'Can I delete my account?',
          a: 'Yes, write to support. Order records that anti-money-laundering law requires us to keep remain for the required period.',
        },
        {
          q: 'What does the referral cookie do?',
          a: 'It remembers for 30 days which referral link brought you, so the person who invited you receives their bonus. It holds only the referral code.',
        },
      ],
      cta: null,
    },
  },
};
