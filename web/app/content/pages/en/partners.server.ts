import type { PartnerSlug } from '../../slugs.ts';
import type { ServicePage } from '../types.ts';
import { faq, limits, steps } from './blocks.server.ts';

/** The 9 partner and business pages in English (spec sections 1 and 2). */
export const partners: Record<PartnerSlug, ServicePage> = {
  'fop-payment': {
    title: 'Payments to Ukrainian sole proprietors (FOP)',
    metaTitle: 'Pay a Ukrainian FOP in hryvnias from crypto',
    metaDescription:
      'Pay a Ukrainian sole proprietor’s (FOP) invoice in UAH from USDT or other coins: a bank transfer to the FOP’s IBAN with the purpose from the invoice. 09:00–23:00 Kyiv time.',
    lead: 'Pay a Ukrainian FOP’s invoice in hryvnias from USDT or another coin. The FOP receives a bank transfer to their business IBAN with the purpose of payment from their invoice.',
    sections: [
      {
        heading: 'Who it is for',
        bullets: [
          'Companies and individuals abroad paying Ukrainian contractors registered as FOP.',
          'Clients who hold crypto and need to pay a FOP’s invoice in UAH.',
          'FOPs themselves, to share with clients who would like to pay in crypto.',
        ],
      },
      {
        heading: 'What the FOP gives you',
        bullets: [
          'The invoice (rakhunok) with the FOP’s full name, IBAN (UA…, 29 characters) and tax number (RNOKPP).',
          'The purpose of payment they expect, for example “Payment for IT services under contract No. 12”. Ukrainian banks check that it matches the FOP’s activities, so use it word for word.',
          'The exact amount in UAH.',
        ],
        paragraphs: [
          'We do not give tax or accounting advice: how the income is recorded is up to the FOP and their accountant.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDT (TRC20) → UAH. Enter the invoice amount in the You Get field so exactly that sum reaches the FOP.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and full name, the FOP’s IBAN as the payout account and, as the reason, the purpose of payment with the invoice number and the FOP’s tax number.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The FOP’s invoice: full name, IBAN, tax number, amount and purpose of payment.',
      'Your e-mail address and full name (or your company’s contact person).',
      'USDT, BTC or another supported coin.',
    ],
    limits: [
      limits.operator,
      limits.rateFixed,
      limits.crypto,
      limits.window,
      limits.minMax,
      limits.aml,
    ],
    faq: [
      {
        q: 'When does the FOP receive the money?',
        a: 'UAH directions are processed from 09:00 to 23:00 Kyiv time. After your crypto arrives the operator sends the transfer; when it is credited depends on the FOP’s bank. Orders created after 22:30 are processed the next morning.',
      },
      {
        q: 'We pay many FOPs every month. Is there anything easier?',
        a: 'Each FOP is one order, and the Repeat action in your history copies last month’s order. Completed orders raise your level, which lowers your margin: bronze from 5, silver from 20, gold from 50, platinum from 150.',
      },
      {
        q: 'What purpose of payment should be used?',
        a: 'Exactly the one on the FOP’s invoice, with the invoice or contract number. A vague purpose can make the FOP’s bank ask questions.',
      },
      faq.aml,
      faq.support,
    ],
    cta: { label: 'Pay a FOP in hryvnias', from: 'USDTTRC20', to: 'UAH' },
  },

  'sepa-payment': {
    title: 'SEPA payments in crypto for business',
    metaTitle: 'SEPA payments from crypto for business',
    metaDescription:
      'Pay suppliers, contractors and partners in the SEPA area in euros from your company’s USDT, USDC, BTC or ETH, with the invoice number in every transfer.',
    lead: 'Pay suppliers, contractors and partners in the SEPA area in euros from your company’s crypto (USDT, USDC, BTC or ETH), with the invoice number in every transfer.',
    sections: [
      {
        heading: 'Who it is for',
        bullets: [
          'Crypto-native businesses paying euro invoices.',
          'Companies that receive revenue in stablecoins and pay their costs in euros.',
          'Teams paying contractors and freelancers in the EU.',
        ],
      },
      {
        heading: 'How payments are made',
        paragraphs: [
          'Each invoice is one order: choose the pair, enter the invoice amount on the You Get side, give the beneficiary’s IBAN and the invoice number, then pay in crypto. The euros go out as a SEPA transfer once your crypto is received, and the order with its payout ID stays in your transaction history.',
        ],
      },
      {
        heading: 'For regular payments',
        bullets: [
          'Use one account for all company orders, so the history and the level stay together.',
          'Margins fall as completed orders add up: bronze from 5, silver from 20, gold from 50, platinum from 150.',
          'Several orders can be open at the same time; plan large or urgent batches with support.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDT (TRC20) → EUR. Enter the invoice total in the You Get field.',
      },
      {
        title: 'Create the order',
        text: 'Give the company account’s e-mail, the contact person’s full name, the beneficiary’s IBAN as the payout account and the invoice number as the reason.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The invoice: beneficiary, IBAN, invoice number and amount.',
      'An e-mail address for the company’s account and a contact person’s name.',
      'USDT, USDC, BTC, ETH or another supported coin in a company wallet.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.minMax, limits.aml],
    faq: [
      {
        q: 'Can we pay several invoices at once?',
        a: 'Create one order per invoice; several orders can be open at the same time, each with its own fixed rate.',
      },
      {
        q: 'Will the beneficiary know who paid?',
        a: 'They see the invoice number in the purpose, which is how they match the payment. Tell them to expect the transfer from a different sender than your company account.',
      },
      {
        q: 'What records do we get for accounting?',
        a: 'Each order keeps the amounts, the fixed rate, the dates and the payout ID. Ask your accountant how to book them; we do not give tax or accounting advice.',
      },
      faq.aml,
      faq.cancel,
    ],
    cta: { label: 'Pay a SEPA invoice from USDT', from: 'USDTTRC20', to: 'EUR' },
  },

  'swift-payment': {
    title: 'SWIFT payments with crypto',
    metaTitle: 'International SWIFT payments from and to crypto',
    metaDescription:
      'Pay a foreign partner’s IBAN account in USD, EUR, GBP, CHF or PLN from crypto, or pay by SWIFT transfer and receive USDT (TRC20) or BTC.',
    lead: 'International bank payments for business, both ways: pay a foreign partner’s IBAN account in USD, EUR, GBP, CHF or PLN from crypto, or pay us by SWIFT and receive USDT or BTC.',
    sections: [
      {
        heading: 'Paying out from crypto',
        paragraphs: [
          'Choose the invoice currency on the receiving side and give the beneficiary’s IBAN as the payout account. Payouts go to accounts identified by an IBAN; an account without one (in the USA, for example) cannot be paid through the form.',
        ],
      },
      {
        heading: 'Paying in by bank transfer',
        paragraphs: [
          'When you pay us in a bank currency, the order shows our bank details: beneficiary, account number, SWIFT/BIC, bank address and a payment reference. Send the transfer with that reference and receive crypto; USDT is paid out on TRC20.',
        ],
      },
      {
        heading: 'Before a SWIFT transfer',
        bullets: [
          'Ask your bank to send with the OUR fee option, so intermediary banks do not take their fees from the amount.',
          'SWIFT transfers take longer than SEPA: often one to several business days.',
          'Always include the payment reference from the order.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDT (TRC20) → USD. Choose the invoice currency, or swap the sides to pay by bank transfer and receive crypto.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and full name, the beneficiary’s IBAN (or your wallet, when you receive crypto) and the invoice number as the reason.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The invoice with the beneficiary’s name and IBAN.',
      'Your e-mail address and full name.',
      'Crypto to pay with, or a bank account that can send international transfers.',
      'When you receive USDT: a TRC20 address.',
    ],
    limits: [
      limits.operator,
      limits.rateFixed,
      limits.crypto,
      limits.minMax,
      'SWIFT transfers are credited in one to several business days, depending on the banks on the way.',
      limits.aml,
    ],
    faq: [
      {
        q: 'Which currencies can be sent?',
        a: 'EUR, USD, GBP, CHF, PLN, CZK and UAH. EUR and UAH exchange directly with popular coins; the others go through BTC or USDT (TRC20).',
      },
      {
        q: 'Can you pay a US account without an IBAN?',
        a: 'No. The payout account must be an IBAN. For such partners, ask whether they can receive a payment to an IBAN account or in crypto.',
      },
      {
        q: 'What if my transfer arrives reduced by bank fees?',
        a: 'Send with the OUR fee option to avoid it. If an amount arrives short, write to support with the order number, and the operator agrees with you how to settle it.',
      },
      {
        q: 'Does the rate change while the transfer travels?',
        a: 'No, the rate is fixed when the order is created. Send the transfer promptly once you have the details.',
      },
      faq.aml,
    ],
    cta: { label: 'Pay abroad from USDT', from: 'USDTTRC20', to: 'USD' },
  },

  'car-purchase-business': {
    title: 'Buy cars for your business with crypto',
    metaTitle: 'Buy company and fleet cars with crypto',
    metaDescription:
      'Pay car dealers, leasing companies and auctions in euros from your company’s crypto, at a rate fixed when each order is created. Details in 2–10 minutes.',
    lead: 'Company cars, fleet vehicles and cars for resale: pay dealers, leasing companies and auctions in euros from your company’s crypto, at a rate fixed when each order is created.',
    sections: [
      {
        heading: 'Who it is for',
        bullets: [
          'Companies buying company or fleet cars.',
          'Car dealers and importers paying European auctions and dealers.',
          'Rental and taxi fleets renewing their vehicles.',
        ],
      },
      {
        heading: 'Paying for several cars',
        paragraphs: [
          'Each invoice is one order. Auctions often set short payment deadlines, so create the order as soon as the invoice arrives and tell support about large batches in advance.',
        ],
        bullets: [
          'Auction and dealer invoices in euros, to their IBAN.',
          'Deposits and balances as separate orders.',
          'Transport, customs brokers and registration services with an IBAN, paid the same way.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDT (TRC20) → EUR. Enter the invoice total in the You Get field.',
      },
      {
        title: 'Create the order',
        text: 'Give the company account’s e-mail, the contact person’s full name, the seller’s IBAN as the payout account and the invoice or lot number as the reason.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The dealer’s, leasing company’s or auction’s invoice with its IBAN.',
      'An e-mail address for the company’s account and a contact person’s name.',
      'USDT, BTC or another supported coin.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.minMax, limits.aml],
    faq: [
      {
        q: 'Can we meet an auction’s short payment deadline?',
        a: 'Usually: details come in 2–10 minutes and the crypto is processed within about an hour after your transaction appears on the network. Leave time for the bank transfer to be credited before the deadline.',
      },
      {
        q: 'Can we pay in other currencies than euros?',
        a: 'Yes, GBP, CHF, PLN and CZK, exchanged from BTC or USDT (TRC20), to accounts with an IBAN.',
      },
      {
        q: 'Do the company’s orders count towards a level?',
        a: 'Yes. Completed orders raise the account’s level (bronze from 5, silver from 20, gold from 50, platinum from 150), and each level has a lower margin.',
      },
      {
        q: 'What records do we get?',
        a: 'Each order keeps the amounts, the fixed rate, the dates and the payout ID, in your transaction history.',
      },
      faq.aml,
    ],
    cta: { label: 'Pay a car invoice from USDT', from: 'USDTTRC20', to: 'EUR' },
  },

  'professional-services': {
    title: 'Pay for professional services with crypto',
    metaTitle: 'Pay lawyers, accountants and contractors with crypto',
    metaDescription:
      'Pay lawyers, accountants, consultants, agencies and freelancers in euros or hryvnias from USDC, USDT or BTC, or pay contractors in the coin they prefer.',
    lead: 'Lawyers, accountants, consultants, designers, developers and agencies: pay their invoices in euros or hryvnias from your crypto, or pay contractors who want crypto in the coin they prefer.',
    sections: [
      {
        heading: 'Who you can pay',
        bullets: [
          'Law and accounting firms, auditors and consultants billing to an IBAN.',
          'Agencies and freelancers with euro invoices.',
          'Ukrainian FOP contractors, in hryvnias.',
          'Contractors who prefer crypto: exchange into the coin they want, with their address as the payout wallet.',
        ],
      },
      {
        heading: 'Paying contractors regularly',
        bullets: [
          'One order per invoice; the Repeat action in your history copies last month’s order.',
          'Contractors paid in USDT receive it on TRC20, quickly and cheaply.',
          'Completed orders lower your margin over time through the levels.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDC (ERC20) → EUR. Choose UAH for a Ukrainian contractor, or a coin if they are paid in crypto.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and full name, the contractor’s IBAN or wallet as the payout and the invoice number with a short description of the service as the reason.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The contractor’s invoice with their IBAN, or their wallet address.',
      'Your e-mail address and full name.',
      'USDC, USDT, BTC or another supported coin.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.window, limits.minMax],
    faq: [
      {
        q: 'Can I pay a contractor in another coin?',
        a: 'Yes. Choose the coin they want on the receiving side and their address as the payout wallet; USDT is paid on TRC20.',
      },
      {
        q: 'Can contractors in Ukraine be paid in hryvnias?',
        a: 'Yes, to their IBAN, between 09:00 and 23:00 Kyiv time. See the page on FOP payments for what their invoice should contain.',
      },
      {
        q: 'What should the purpose of payment say?',
        a: 'The invoice number and a short description of the service, as on the invoice. It helps both the contractor and their bank.',
      },
      faq.levels,
      faq.aml,
    ],
    cta: { label: 'Pay an invoice from USDC', from: 'USDCERC20', to: 'EUR' },
  },

  'aws-google-azure-payment': {
    title: 'Pay AWS, Google Cloud and Azure with crypto',
    metaTitle: 'Pay AWS, Google Cloud and Azure invoices with crypto',
    metaDescription:
      'Pay AWS, Google Cloud and Microsoft Azure from crypto: a bank transfer to the IBAN on the invoice with its reference, or the Stealth Virtual Card for card billing.',
    lead: 'Keep your cloud running when the infrastructure budget is in crypto: pay AWS, Google Cloud and Microsoft Azure by bank transfer to the IBAN on their invoice, or with the Stealth Virtual Card.',
    sections: [
      {
        heading: 'Two ways to pay',
        bullets: [
          'Invoiced billing: when the invoice shows a bank account with an IBAN and a payment reference, pay it as crypto → EUR or USD with that reference as the reason.',
          'Card billing: accounts charged to a card can use the Stealth Virtual Card, topped up with USDT (TRC20).',
        ],
      },
      {
        heading: 'Avoid a suspended account',
        bullets: [
          'Pay before the due date: cloud providers suspend services over overdue balances.',
          'Use the payment reference or invoice number exactly as on the bill; the provider matches the transfer by it.',
          'With card billing, keep enough on the card for month-end usage peaks.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDT (TRC20) → EUR. Choose USD if the invoice is in dollars, and enter the invoice total in the You Get field.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and full name, the IBAN from the invoice as the payout account and the invoice’s payment reference as the reason.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The provider’s invoice with an IBAN and a payment reference, or a Stealth Virtual Card.',
      'Your e-mail address and full name.',
      'USDT, BTC or another supported coin.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.minMax, limits.aml],
    faq: [
      {
        q: 'The invoice is in US dollars. Can you pay it?',
        a: 'Yes, if the bank account on the invoice has an IBAN: choose USD on the receiving side (exchanged from BTC or USDT TRC20). Accounts without an IBAN cannot be paid through the form; use the card instead.',
      },
      {
        q: 'We have several cloud accounts. How do we pay them?',
        a: 'One order per invoice, each with its own payment reference. Several orders can run at the same time.',
      },
      {
        q: 'Do cloud providers accept the virtual card?',
        a: 'Most accept card payments; some refuse virtual or prepaid cards. Add the card and try a small charge before relying on it.',
      },
      {
        q: 'What if the payment arrives after the due date?',
        a: 'How late payments are handled is up to the provider. Pay a few days ahead so the transfer is credited in time.',
      },
      faq.aml,
    ],
    cta: { label: 'Pay a cloud invoice from USDT', from: 'USDTTRC20', to: 'EUR' },
  },

  'special-equipment-purchase': {
    title: 'Buy special equipment with crypto',
    metaTitle: 'Buy machinery and special equipment with crypto',
    metaDescription:
      'Pay manufacturers and dealers of construction, agricultural, industrial and medical equipment in euros or hryvnias from your company’s crypto, stage by stage.',
    lead: 'Construction and agricultural machinery, industrial and medical equipment, generators and spare parts: pay manufacturers and dealers in euros from your company’s crypto.',
    sections: [
      {
        heading: 'What you can pay',
        bullets: [
          'Machinery and vehicles from European dealers and manufacturers.',
          'Industrial, energy and medical equipment on invoice.',
          'Spare parts, service contracts and delivery.',
          'Purchases in Ukraine, in hryvnias.',
        ],
      },
      {
        heading: 'Large purchases',
        paragraphs: [
          'Equipment deals are often paid in stages: a prepayment, a payment before shipment and the balance on delivery. Make each stage its own order; each gets the rate of the moment you create it. Above the form’s maximum, split the payment and tell support in advance so the operator can plan it.',
          'We make the payment only: customs, delivery and documents are between you and the supplier or your broker.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDT (TRC20) → EUR. Enter the stage amount in the You Get field.',
      },
      {
        title: 'Create the order',
        text: 'Give the company account’s e-mail, the contact person’s full name, the supplier’s IBAN as the payout account and the proforma invoice or contract number as the reason.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The proforma invoice or contract with the supplier’s IBAN.',
      'An e-mail address for the company’s account and a contact person’s name.',
      'USDT, BTC or another supported coin.',
      'For large sums, records of where the crypto came from, in case the AML check asks.',
    ],
    limits: [
      limits.operator,
      limits.rateFixed,
      limits.crypto,
      limits.window,
      limits.minMax,
      limits.aml,
    ],
    faq: [
      {
        q: 'Can we pay a prepayment now and the balance later?',
        a: 'Yes. Each stage is a separate order with its own fixed rate.',
      },
      {
        q: 'The supplier wants payment from our company account. What then?',
        a: 'Some suppliers require it, so ask them before you order. With us they receive a transfer from a different sender, with your invoice number in the purpose.',
      },
      {
        q: 'Can you pay a supplier in Ukraine in hryvnias?',
        a: 'Yes, to their IBAN, between 09:00 and 23:00 Kyiv time; orders created after 22:30 are processed the next morning.',
      },
      {
        q: 'Do you handle customs or delivery?',
        a: 'No. We make the payment; customs, delivery and documents are arranged with the supplier or your broker.',
      },
      faq.aml,
    ],
    cta: { label: 'Pay a supplier from USDT', from: 'USDTTRC20', to: 'EUR' },
  },

  'digitalocean-cloudflare-payment': {
    title: 'Pay DigitalOcean and Cloudflare with crypto',
    metaTitle: 'Pay DigitalOcean and Cloudflare with crypto',
    metaDescription:
      'Pay for droplets, Kubernetes, CDN, Workers and domains with the Stealth Virtual Card topped up in USDT (TRC20) from ETH, BTC or other coins. No company card needed.',
    lead: 'Pay for droplets, Kubernetes, CDN, Workers and domains with the Stealth Virtual Card topped up from your crypto; no company bank card needed.',
    sections: [
      {
        heading: 'How it works',
        paragraphs: [
          'DigitalOcean and Cloudflare charge a payment card saved in the account. Top up the Stealth Virtual Card with USDT (TRC20) from ETH, BTC or any other coin, add the card in the billing settings and keep enough on it for the monthly charge.',
        ],
      },
      {
        heading: 'Keep services online',
        bullets: [
          'Check your usage forecast and keep at least one month’s bill on the card.',
          'Set billing alerts in the provider’s dashboard.',
          'If a charge fails, top up the card and retry the payment on the billing page before services are suspended.',
          'Many providers accept one-time payments from the billing page; paying ahead smooths out month-end charges.',
        ],
      },
    ],
    steps: [
      {
        title: 'Get the card',
        text: 'Ask for a Stealth Virtual Card through the contact form or in Telegram. You receive its details and its USDT (TRC20) top-up address.',
      },
      {
        title: 'Create a top-up order',
        text: 'The exchange opens with ETH → USDT (TRC20). Enter the amount, your e-mail and the card’s top-up address as the payout wallet.',
      },
      steps.operator,
      steps.payCrypto,
      {
        title: 'Add the card to billing',
        text: 'Once the USDT reaches the card (the completed order shows the transaction ID), add the card in the provider’s billing settings.',
      },
    ],
    requirements: [
      'A Stealth Virtual Card, or a request for one.',
      'ETH, BTC or another supported coin.',
      'An e-mail address.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.trc20, limits.minMax],
    faq: [
      {
        q: 'Can one card pay several accounts?',
        a: 'Yes, as long as its balance covers all the charges. Separate cards per project make costs easier to follow.',
      },
      {
        q: 'Will the provider accept a virtual card?',
        a: 'Most do. A few refuse virtual or prepaid cards for some accounts; add the card and try a small charge first.',
      },
      {
        q: 'How much should I keep on the card?',
        a: 'At least your expected monthly bill plus a margin for traffic or usage peaks.',
      },
      faq.account,
      faq.aml,
    ],
    cta: { label: 'Top up the card from ETH', from: 'ETH', to: 'USDTTRC20' },
  },

  'travel-and-tickets-payment-business': {
    title: 'Business travel paid with crypto',
    metaTitle: 'Pay business travel and conferences with crypto',
    metaDescription:
      'Pay travel agencies, conference organisers and hotels in euros from company crypto, book online with the Stealth Virtual Card, or take cash for the team.',
    lead: 'Flights, hotels, conferences and team trips: pay travel agencies and event organisers in euros from company crypto, or book online with the Stealth Virtual Card.',
    sections: [
      {
        heading: 'What you can pay',
        bullets: [
          'Invoices of travel agencies and business travel companies.',
          'Conference and trade-fair tickets, stands and registrations on invoice.',
          'Hotels and venues for team events.',
          'Cash for the trip: crypto → cash US dollars or euros at a cash point, between 09:00 and 23:00 Kyiv time.',
        ],
      },
      {
        heading: 'Plan ahead',
        paragraphs: [
          'Group bookings hold prices for a limited time. Create the order as soon as you have the agency’s invoice: the details come in 2–10 minutes, the crypto is processed within about an hour after your transaction appears on the network, and then the transfer needs time to be credited.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDT (TRC20) → EUR. Enter the invoice total in the You Get field.',
      },
      {
        title: 'Create the order',
        text: 'Give the company account’s e-mail, the contact person’s full name, the agency’s IBAN as the payout account and the booking or invoice number as the reason.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The agency’s or organiser’s invoice with its IBAN, or a Stealth Virtual Card for online bookings.',
      'An e-mail address for the company’s account and a contact person’s name.',
      'USDT, BTC or another supported coin.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.window, limits.minMax],
    faq: [
      {
        q: 'Can we pay for many travellers in one order?',
        a: 'One invoice is one order, whatever the number of travellers on it.',
      },
      {
        q: 'What about refunds and changes?',
        a: 'They follow the rules of the agency, airline or organiser. Agree on them before you pay.',
      },
      {
        q: 'Can employees get cash for the trip?',
        a: 'Yes: choose cash USD or EUR on the receiving side. The operator arranges the handover at a cash point between 09:00 and 23:00 Kyiv time.',
      },
      faq.levels,
      faq.support,
    ],
    cta: { label: 'Pay a travel invoice from USDT', from: 'USDTTRC20', to: 'EUR' },
  },
};
