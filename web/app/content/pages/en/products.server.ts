import type { ProductSlug } from '../../slugs.ts';
import type { ServicePage } from '../types.ts';
import { faq, limits, steps } from './blocks.server.ts';

/** The 16 product pages in English (spec sections 1 and 2). */
export const products: Record<ProductSlug, ServicePage> = {
  'car-purchase': {
    title: 'Pay for a car with crypto',
    metaTitle: 'Buy a car with crypto: pay the dealer in euros or get cash',
    metaDescription:
      'Pay a car dealer’s invoice in euros from USDT, BTC or other coins, or take cash for a private deal. Rate fixed at order creation, payment details in 2–10 minutes.',
    lead: 'Buy a car from a dealer or a private seller with your crypto: we pay the seller’s invoice by bank transfer in euros, or hand you cash for a private deal.',
    sections: [
      {
        heading: 'What the service does',
        paragraphs: [
          'Your savings are in USDT, BTC or another coin, and the seller wants euros on their account or cash in hand. We exchange your crypto at a rate fixed when you create the order and pay out the way the deal needs.',
        ],
        bullets: [
          'Dealer or leasing company: the euros go by bank transfer to the IBAN on their invoice.',
          'Private seller: exchange crypto to cash US dollars or euros and collect it at a cash point.',
          'Car from abroad: pay the foreign dealer or auction house to its IBAN.',
        ],
      },
      {
        heading: 'Before you pay',
        bullets: [
          'Check the seller’s name and IBAN against the contract or the invoice. Once the transfer is sent we cannot call it back.',
          'Write the invoice or contract number in the Reason field of the order; the operator uses it as the purpose of the transfer.',
          'For a sum above the form’s maximum, split it into several orders and tell support in advance so the operator can plan it.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDT (TRC20) → EUR; pick your own coin if you pay with another one. Enter the invoice total in the You Get field to see exactly how much crypto to send.',
      },
      {
        title: 'Create the order',
        text: 'Enter your e-mail and full name, the seller’s IBAN as the payout account and the invoice number as the reason. Tick both agreements and create the order.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'Crypto to pay with: USDT, BTC, ETH, XMR or another supported coin.',
      'The seller’s invoice or purchase contract with their IBAN.',
      'Your e-mail address and full name.',
      'For a cash deal: time between 09:00 and 23:00 Kyiv time to collect the cash.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.window, limits.minMax],
    faq: [
      {
        q: 'Can I pay a dealer outside the EU?',
        a: 'Yes, if the dealer’s account has an IBAN. Besides euros you can pay in GBP, CHF, PLN or CZK, exchanged from BTC or USDT (TRC20). An account without an IBAN cannot be paid through the form.',
      },
      {
        q: 'Can I pay a deposit now and the rest on delivery?',
        a: 'Yes. Each payment is a separate order with its own fixed rate, so you can pay the deposit today and the balance when the car is ready.',
      },
      {
        q: 'What do I show the dealer as proof of payment?',
        a: 'The completed order shows the amounts and the ID of the payout. Send these to the dealer together with the invoice number you wrote in the order.',
      },
      faq.aml,
      faq.account,
    ],
    cta: { label: 'Pay for a car with USDT', from: 'USDTTRC20', to: 'EUR' },
  },

  'rent-payment': {
    title: 'Pay rent with crypto',
    metaTitle: 'Pay rent with crypto: euros or hryvnias to your landlord’s IBAN',
    metaDescription:
      'Pay your landlord or agency in euros or hryvnias from USDT, BTC or other coins. An ordinary bank transfer, rate fixed at order creation, details in 2–10 minutes.',
    lead: 'Pay your landlord or agency in euros or hryvnias straight from USDT, BTC or another coin. The rent arrives as an ordinary bank transfer.',
    sections: [
      {
        heading: 'How the rent reaches your landlord',
        paragraphs: [
          'Your landlord does not need to know anything about crypto. You create an exchange to EUR (or to UAH for a flat in Ukraine) with the landlord’s IBAN as the payout account, and we send a normal bank transfer with the purpose you write.',
        ],
      },
      {
        heading: 'Good to know',
        bullets: [
          'Pay a few days before the due date: depending on the banks, a transfer can take up to a business day to be credited.',
          'Rent in hryvnias goes through a UAH direction, processed daily from 09:00 to 23:00 Kyiv time.',
          'The deposit and the first month can be one order or two; each order has its own fixed rate.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'Start with USDT (TRC20) → EUR, or choose UAH for a landlord in Ukraine. Enter the rent in the You Get field so exactly that amount arrives.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and full name, the landlord’s IBAN as the payout account and a purpose they will recognise, such as “Rent for March, flat 12”.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The landlord’s or agency’s name and IBAN, as in the rental agreement.',
      'The amount of rent and the period it covers.',
      'Your e-mail address and full name.',
      'USDT, BTC or another supported coin.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.window, limits.minMax],
    faq: [
      {
        q: 'Can I set up a monthly payment?',
        a: 'There are no automatic payments: create an order each month. The Repeat action in your transaction history copies the previous order, so it takes a minute.',
      },
      {
        q: 'My landlord is in Ukraine. Which currency do I choose?',
        a: 'UAH, with the landlord’s Ukrainian IBAN (it starts with UA). UAH directions are processed from 09:00 to 23:00 Kyiv time.',
      },
      {
        q: 'What should I write as the purpose?',
        a: 'Something your landlord will recognise: the month, the address or flat number, and your name if someone else pays for you.',
      },
      faq.late,
      faq.levels,
    ],
    cta: { label: 'Pay rent with USDT', from: 'USDTTRC20', to: 'EUR' },
  },

  'top-up-cards': {
    title: 'Top up a bank card with crypto',
    metaTitle: 'Top up a bank card with crypto: USDT to UAH or EUR',
    metaDescription:
      'Turn USDT, BTC or other coins into hryvnias or euros on your bank card through its IBAN. Details in 2–10 minutes, UAH directions 09:00–23:00 Kyiv time.',
    lead: 'Turn USDT, BTC or another coin into hryvnias or euros on your own bank card: the payout goes to the IBAN of the account behind the card.',
    sections: [
      {
        heading: 'How a card top-up works',
        paragraphs: [
          'Every bank card sits on an account that has an IBAN; you find it in your banking app under the card’s account details. Use that IBAN as the payout account and the money lands on the card’s balance.',
        ],
        bullets: [
          'Hryvnias on a Ukrainian card: USDT (TRC20) → UAH, processed from 09:00 to 23:00 Kyiv time.',
          'Euros on a European card: USDT, BTC or ETH → EUR.',
          'A card for online purchases without a bank: see the Stealth Virtual Card, topped up with USDT (TRC20).',
        ],
      },
      {
        heading: 'Tips',
        bullets: [
          'Enter the full name exactly as the account holder’s name: banks compare it with the IBAN.',
          'Check your bank’s limits on incoming transfers before a large top-up.',
          'Only top up cards of people you know: a bank transfer cannot be reversed.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDT (TRC20) → UAH. Enter what you want to send, or what should arrive on the card in the You Get field.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail, the account holder’s full name and the IBAN of the card’s account as the payout account; as the reason, “Top-up of my card” is enough.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The IBAN of the card’s account (not the 16-digit card number).',
      'The account holder’s full name.',
      'Your e-mail address.',
      'USDT, BTC or another supported coin.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.window, limits.minMax],
    faq: [
      {
        q: 'Can I use the 16-digit card number?',
        a: 'No, payouts go to an IBAN. Open the card’s account details in your banking app and copy the IBAN; a Ukrainian one starts with UA and has 29 characters.',
      },
      {
        q: 'How fast is the money on the card?',
        a: 'The operator sends the transfer as soon as your crypto is received within the processing hours. When it is credited then depends on your bank.',
      },
      {
        q: 'Can I top up someone else’s card?',
        a: 'Yes: enter their IBAN and their full name as the account holder. Send money only to people you know, because transfers cannot be reversed.',
      },
      faq.late,
      faq.aml,
    ],
    cta: { label: 'Top up a card from USDT', from: 'USDTTRC20', to: 'UAH' },
  },

  'education-payment': {
    title: 'Pay tuition with crypto',
    metaTitle: 'Pay tuition and courses with crypto in euros',
    metaDescription:
      'Pay university fees, language courses and student housing in euros from USDT, BTC or ETH. The school gets a bank transfer with your student number in the purpose.',
    lead: 'Pay university fees, language courses and student housing in euros from your crypto. The school receives a normal bank transfer with your student number in the purpose.',
    sections: [
      {
        heading: 'What you can pay',
        bullets: [
          'Tuition and semester fees of universities and colleges that give an IBAN.',
          'Language schools, courses, exam and application fees on invoice.',
          'Student housing and dormitories.',
          'Schools and courses in Ukraine, in hryvnias.',
        ],
      },
      {
        heading: 'Make sure the payment is recognised',
        paragraphs: [
          'Schools match payments by the reference they give you: a student ID, an invoice number or an applicant number. Put it in the Reason field exactly as it appears on the invoice; the operator uses it as the purpose of the transfer.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'Start with USDT (TRC20) → EUR, or choose your coin and the currency of the invoice. Enter the fee in the You Get field.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and full name, the school’s IBAN as the payout account and, as the reason, the student’s name with the student or invoice number.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The school’s invoice with its IBAN and the payment reference.',
      'The student’s name and ID if you pay for someone else.',
      'Your e-mail address and full name.',
      'USDT, BTC, ETH or another supported coin.',
    ],
    limits: [
      limits.operator,
      limits.rateFixed,
      limits.crypto,
      limits.minMax,
      'Pay well before the school’s deadline: a bank transfer can take a business day or more to be credited.',
    ],
    faq: [
      {
        q: 'Can parents pay for a student?',
        a: 'Yes. Use your own e-mail and name in the order and put the student’s name and ID in the Reason field, so the school credits the right person.',
      },
      {
        q: 'The invoice is in pounds, francs or zloty. Is that possible?',
        a: 'Yes. Choose GBP, CHF, PLN or CZK on the receiving side; these currencies are exchanged from BTC or USDT (TRC20).',
      },
      {
        q: 'Do I get a receipt?',
        a: 'The completed order shows the amounts and the ID of the payout. The school issues its own receipt once the transfer is credited.',
      },
      faq.account,
      faq.levels,
    ],
    cta: { label: 'Pay tuition from USDT', from: 'USDTTRC20', to: 'EUR' },
  },

  'real-estate-spain': {
    title: 'Buy real estate in Spain with crypto',
    metaTitle: 'Buy property in Spain with crypto: euros from USDT or BTC',
    metaDescription:
      'Pay a reservation deposit or the purchase price of a property in Spain in euros from USDT or BTC, by bank transfer to the seller, developer or escrow IBAN.',
    lead: 'Pay the reservation deposit, stage payments or the purchase price of a property in Spain in euros from USDT or BTC, by bank transfer to the IBAN in your contract.',
    sections: [
      {
        heading: 'How a crypto-funded purchase works',
        paragraphs: [
          'Property deals in Spain settle in euros by bank transfer. We exchange your crypto at a rate fixed when you create the order and send the transfer to the IBAN you give: the developer, the seller, or the agency or escrow account that holds the deposit.',
        ],
        bullets: [
          'Reservation deposit (arras) to the agency or the developer.',
          'Stage payments during construction to the developer.',
          'The rest of the price at signing, to the account named in the contract.',
        ],
      },
      {
        heading: 'Plan large payments',
        bullets: [
          'Sums above the form’s maximum are paid in several orders; tell support the total and the deadline beforehand so the operator can plan them.',
          'Spanish banks and notaries ask where the money comes from: keep the completed orders and your crypto transaction IDs as part of your proof of funds.',
          'We do not give legal or tax advice; ask your lawyer how a crypto-funded payment should be documented.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDT (TRC20) → EUR. Enter the amount due in the You Get field to see how much crypto it takes.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and full name, the recipient’s IBAN from the contract as the payout account and the contract or reservation reference as the reason.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The reservation agreement or purchase contract with the recipient’s IBAN.',
      'Your e-mail address and full name.',
      'USDT, BTC or another supported coin.',
      'Records of where your crypto came from, in case the AML check or the notary asks.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.minMax, limits.aml],
    faq: [
      {
        q: 'Can I pay the whole price in one transfer?',
        a: 'Up to the maximum shown in the exchange form for one order. A larger price is paid in several orders; tell support the total and the deadline in advance.',
      },
      {
        q: 'Will the notary accept money that came from crypto?',
        a: 'The notary sees a bank transfer in euros. What they check is the origin of the funds, so keep the order records and your crypto history, and confirm the requirements with your lawyer.',
      },
      {
        q: 'How do I protect myself from a fake IBAN?',
        a: 'Confirm the IBAN by phone with the developer or agency, on a number you found yourself rather than one from the same e-mail. Once sent, the transfer cannot be reversed.',
      },
      faq.aml,
      faq.levels,
    ],
    cta: { label: 'Pay in euros from USDT', from: 'USDTTRC20', to: 'EUR' },
  },

  'luxury-goods-payment': {
    title: 'Pay for luxury goods with crypto',
    metaTitle: 'Buy watches, jewellery and luxury goods with crypto',
    metaDescription:
      'Pay a boutique’s or dealer’s invoice in euros from BTC, USDT or other coins, or take cash for a private purchase. Rate fixed when you create the order.',
    lead: 'Watches, jewellery, designer pieces and art: pay the boutique’s or dealer’s invoice in euros from your crypto, or take cash for a private purchase.',
    sections: [
      {
        heading: 'Ways to pay',
        bullets: [
          'Boutique or dealer invoice: crypto → EUR, sent to their IBAN.',
          'Private seller: crypto → cash US dollars or euros, collected at a cash point between 09:00 and 23:00 Kyiv time.',
          'Seller who takes one particular coin: exchange yours into it, with the seller’s address as the payout wallet.',
        ],
      },
      {
        heading: 'Buying safely',
        bullets: [
          'Ask for an invoice with the seller’s company name and IBAN, and check them.',
          'For pieces ordered in advance, pay a deposit first; every payment is its own order with its own rate.',
          'For pre-owned watches and jewellery, agree on authentication before you pay the balance.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with BTC → EUR. Enter the invoice total in the You Get field; for cash, choose cash USD or EUR instead.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and full name, the seller’s IBAN as the payout account and the invoice number as the reason.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The seller’s invoice with the company name and IBAN.',
      'Your e-mail address and full name.',
      'BTC, USDT, ETH, XMR or another supported coin.',
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
        q: 'Will the boutique know I paid with crypto?',
        a: 'The boutique receives a bank transfer in euros with the invoice number in the purpose. The crypto side of the deal stays between you and us.',
      },
      {
        q: 'Can I pay a seller outside the euro area?',
        a: 'Yes, if the account has an IBAN. Choose GBP, CHF, PLN or CZK on the receiving side; these are exchanged from BTC or USDT (TRC20).',
      },
      {
        q: 'Can I get cash instead of a transfer?',
        a: 'Yes: choose cash USD or EUR on the receiving side. Cash directions work from 09:00 to 23:00 Kyiv time, and the operator arranges the handover with you.',
      },
      faq.aml,
      faq.cancel,
    ],
    cta: { label: 'Pay in euros from BTC', from: 'BTC', to: 'EUR' },
  },

  'stealth-virtual-card': {
    title: 'Stealth Virtual Card',
    metaTitle: 'Stealth Virtual Card: a virtual card paid with crypto, no verification',
    metaDescription:
      'A virtual payment card for anonymous online purchases, funded with USDT (TRC20) from BTC, XMR, ETH or other coins and issued without identity verification.',
    lead: 'A virtual payment card for online purchases, funded with crypto and issued without identity verification. Top it up in USDT (TRC20) from BTC, XMR, ETH or any other coin we exchange.',
    sections: [
      {
        heading: 'What the card is',
        paragraphs: [
          'The Stealth Virtual Card pays online wherever cards are accepted: subscriptions, services, shops and bookings. Your purchases are not tied to your bank, and you get the card without sending documents.',
        ],
        bullets: [
          'Online only: there is no plastic card.',
          'Funded in USDT (TRC20); any other coin is exchanged into USDT on the way.',
          'No bank account and no identity documents needed to get it.',
        ],
      },
      {
        heading: 'Getting the card',
        paragraphs: [
          'Ask for a card through the contact form or in Telegram. The operator issues it and gives you the card details and its USDT (TRC20) top-up address. Keep both private, like the details of any payment card.',
        ],
      },
    ],
    steps: [
      {
        title: 'Request the card',
        text: 'Write to support through the contact form or in Telegram. You receive the card details and the card’s USDT (TRC20) top-up address.',
      },
      {
        title: 'Create a top-up order',
        text: 'The exchange opens with BTC → USDT (TRC20). Enter the amount, your e-mail and the card’s top-up address as the payout wallet; as the reason, write “Card top-up”.',
      },
      steps.operator,
      steps.payCrypto,
      {
        title: 'The card is topped up',
        text: 'Once your crypto arrives the service sends the USDT to the card’s top-up address. The completed order shows the transaction ID.',
      },
    ],
    requirements: [
      'An e-mail address.',
      'The card’s USDT (TRC20) top-up address, which you get with the card.',
      'BTC, XMR, ETH or another supported coin, or USDT (TRC20) itself.',
      'Nothing else: no documents, no bank account.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.trc20, limits.minMax],
    faq: [
      {
        q: 'Do I need to verify my identity?',
        a: 'No verification is needed to get or use the card. Like any incoming crypto, your top-up passes the AML check; only funds flagged as suspicious are frozen and may lead to questions.',
      },
      {
        q: 'Where does the card work?',
        a: 'Online, wherever the merchant accepts card payments. A few merchants refuse virtual or prepaid cards; a declined payment is not charged.',
      },
      {
        q: 'I already have USDT on TRC20. Do I need the exchange?',
        a: 'No, you can send USDT (TRC20) to the top-up address directly. The exchange is for topping up from other coins.',
      },
      {
        q: 'Why USDT on TRC20?',
        a: 'Transfers on the TRON network are fast and cheap, and USDT keeps the value of your top-up in dollars while it waits to be spent.',
      },
      faq.support,
    ],
    cta: { label: 'Top up the card from BTC', from: 'BTC', to: 'USDTTRC20' },
  },

  'utility-bills-payment': {
    title: 'Pay utility bills with crypto',
    metaTitle: 'Pay utility bills with crypto: UAH or EUR to the supplier’s IBAN',
    metaDescription:
      'Pay electricity, gas, water, heating, internet and building fees in hryvnias or euros from USDT or other coins, to the supplier’s IBAN from the bill.',
    lead: 'Pay electricity, gas, water, heating, internet and building fees in hryvnias or euros from USDT or another coin, straight to the IBAN on the bill.',
    sections: [
      {
        heading: 'Which bills you can pay',
        bullets: [
          'Ukrainian suppliers and homeowners’ associations (OSBB) that print an IBAN on the bill: crypto → UAH.',
          'European utilities and building managers with an IBAN: crypto → EUR.',
          'Several bills: one order per bill, so each supplier receives its own payment with your account number.',
        ],
      },
      {
        heading: 'The personal account number matters',
        paragraphs: [
          'Suppliers find your payment by the personal account (contract) number printed on the bill. Write it in the Reason field together with the address and the period, for example “Personal account 123456789, flat 12, March”. For Ukrainian suppliers add their EDRPOU code from the bill. The operator uses all of it as the purpose of the transfer.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDT (TRC20) → UAH; choose EUR for a European bill. Enter the bill total in the You Get field.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and full name, the supplier’s IBAN as the payout account and the personal account number, address and period as the reason.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The bill with the supplier’s IBAN and your personal account number.',
      'For Ukrainian suppliers, their EDRPOU code.',
      'Your e-mail address and full name.',
      'USDT or another supported coin.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.window, limits.minMax],
    faq: [
      {
        q: 'Can I pay several bills in one order?',
        a: 'One order pays one recipient. Create an order for each supplier; next month the Repeat action in your history copies them.',
      },
      {
        q: 'How do I know the bill is paid?',
        a: 'The completed order shows the amounts and the ID of the payout. The payment then appears in your supplier’s account or app once the supplier processes it.',
      },
      {
        q: 'What if I pay a little more than the bill?',
        a: 'We send exactly the amount of your order. Suppliers usually count an overpayment towards the next period.',
      },
      faq.late,
      faq.account,
    ],
    cta: { label: 'Pay bills in hryvnias', from: 'USDTTRC20', to: 'UAH' },
  },

  'adult-content-payments': {
    title: 'Discreet payments for adult content',
    metaTitle: 'Discreet crypto payments for adult sites and creators',
    metaDescription:
      'Pay adult sites, creators and memberships without a trace on your bank statement: crypto straight to the platform, or the Stealth Virtual Card funded from XMR or BTC.',
    lead: 'Pay adult sites, creators and memberships without the payment showing up on your bank statement: in crypto straight to the platform, or with the Stealth Virtual Card funded from XMR or BTC.',
    sections: [
      {
        heading: 'Two discreet ways to pay',
        bullets: [
          'The platform accepts crypto: exchange your coin into the one it takes and send the payout straight to its payment address.',
          'The platform takes cards only: pay with the Stealth Virtual Card, topped up with USDT (TRC20) from your crypto; no bank and no verification.',
          'For adults (18+) and legal content only.',
        ],
      },
      {
        heading: 'Privacy in practice',
        paragraphs: [
          'Your bank sees nothing, because no bank is involved. We keep only what an order needs (an e-mail, a name and the payout address) under our privacy policy, and we do not share order details with merchants. A separate e-mail address for such services adds another layer.',
          'Monero (XMR) adds privacy on the blockchain side: its transfers do not reveal amounts or addresses publicly.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with XMR → USDT (TRC20) for a card top-up. To pay a platform directly, choose the coin it accepts and enter its invoice amount in the You Get field.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and the payout address: the card’s top-up address or the platform’s payment address. A neutral reason such as “Card top-up” is enough.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutCrypto,
    ],
    requirements: [
      'XMR, BTC or another supported coin.',
      'An e-mail address, ideally one you keep for such services.',
      'The payout address: the Stealth Virtual Card’s top-up address or the platform’s payment address.',
      'You must be 18 or older.',
    ],
    limits: [
      limits.operator,
      limits.rateFixed,
      limits.crypto,
      limits.trc20,
      limits.minMax,
      limits.aml,
    ],
    faq: [
      {
        q: 'Will the payment show on my bank statement?',
        a: 'No. You pay in crypto from your own wallet and the payout goes to the card or the platform; your bank is not involved at any point.',
      },
      {
        q: 'The platform’s crypto invoice expires quickly. Is that a problem?',
        a: 'It can be: payment details take 2–10 minutes and processing up to about an hour, while many invoices expire sooner. For short-lived invoices, top up the Stealth Virtual Card or your own wallet first and pay from there.',
      },
      {
        q: 'What do I write in the Reason field?',
        a: 'Anything neutral, such as “Card top-up” or “Online service”. It is read only by the operator.',
      },
      faq.aml,
      faq.account,
    ],
    cta: { label: 'Pay discreetly from XMR', from: 'XMR', to: 'USDTTRC20' },
  },

  'console-services-payment': {
    title: 'Pay for console services with crypto',
    metaTitle: 'Pay PlayStation, Xbox and Nintendo services with crypto',
    metaDescription:
      'Pay PlayStation Plus, Xbox Game Pass, Nintendo Switch Online, games and in-game currency from crypto with the Stealth Virtual Card topped up in USDT (TRC20).',
    lead: 'PlayStation Plus, Xbox Game Pass, Nintendo Switch Online, games and in-game currency: pay from crypto with the Stealth Virtual Card, even where the store refuses your bank’s cards.',
    sections: [
      {
        heading: 'How it works',
        paragraphs: [
          'Console stores take cards. Top up the Stealth Virtual Card with USDT (TRC20) from TON, BTC, ETH or any other coin, then pay in the store or on the console as with any card.',
        ],
        bullets: [
          'Subscriptions: PlayStation Plus, Xbox Game Pass, Nintendo Switch Online.',
          'Games, add-ons and in-game currency.',
          'Store wallet top-ups.',
        ],
      },
      {
        heading: 'Good to know',
        bullets: [
          'Stores charge in the currency of your account’s region; keep a little extra on the card for the conversion.',
          'Turn off auto-renewal if you do not want the card to be charged again.',
          'Some stores refuse virtual or prepaid cards in certain regions; a declined payment is not charged.',
        ],
      },
    ],
    steps: [
      {
        title: 'Get the card',
        text: 'Ask for a Stealth Virtual Card through the contact form or in Telegram, if you do not have one yet. You receive its details and USDT (TRC20) top-up address.',
      },
      {
        title: 'Create a top-up order',
        text: 'The exchange opens with TON → USDT (TRC20). Enter the amount, your e-mail and the card’s top-up address as the payout wallet.',
      },
      steps.operator,
      steps.payCrypto,
      {
        title: 'Pay in the store',
        text: 'Once the USDT reaches the card (the completed order shows the transaction ID), add the card to your console account and pay.',
      },
    ],
    requirements: [
      'A Stealth Virtual Card, or a request for one.',
      'TON, BTC, ETH or another supported coin.',
      'An e-mail address.',
      'Your console account with its store region.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.trc20, limits.minMax],
    faq: [
      {
        q: 'Which consoles and stores work?',
        a: 'Any store that takes card payments online: PlayStation Store, Microsoft Store for Xbox, Nintendo eShop and game publishers’ own shops.',
      },
      {
        q: 'How much should I top up?',
        a: 'The price plus a small margin for the store’s currency conversion. Whatever remains stays on the card for the next purchase.',
      },
      {
        q: 'Do I need a new order for every purchase?',
        a: 'Only to top up the card. One top-up can cover several purchases and renewals.',
      },
      faq.account,
      faq.levels,
    ],
    cta: { label: 'Top up the card from TON', from: 'TON', to: 'USDTTRC20' },
  },

  'send-receive-money-ua-eu': {
    title: 'Send and receive money between Ukraine and the EU',
    metaTitle: 'Send money between Ukraine and the EU: UAH ↔ EUR',
    metaDescription:
      'Transfer money between a Ukrainian hryvnia account and a European euro account in either direction, or through crypto. Daily 09:00–23:00 Kyiv time.',
    lead: 'Move money between a Ukrainian account in hryvnias and a European account in euros, in either direction, or through crypto when that suits you better.',
    sections: [
      {
        heading: 'Directions',
        bullets: [
          'Ukraine → EU: pay in UAH by bank transfer and receive EUR on any European IBAN.',
          'EU → Ukraine: pay in EUR and receive UAH on a Ukrainian IBAN.',
          'US dollars and Polish zloty to and from UAH as well.',
          'Through crypto: UAH → USDT (TRC20), and later USDT → EUR, if you want to hold the money in between.',
        ],
      },
      {
        heading: 'Who uses it',
        paragraphs: [
          'Families supporting relatives, people living in the EU who keep an account at home, and freelancers who earn in one currency and spend in the other. Both ends are ordinary bank accounts; you need no crypto wallet for the bank-to-bank directions.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the direction and the amount',
        text: 'The exchange opens with UAH → EUR; swap the sides for EU → Ukraine. Enter what you send, or what should arrive in the You Get field.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and full name, the recipient’s IBAN as the payout account (European for EUR, Ukrainian for UAH) and the purpose, such as “Family support”.',
      },
      steps.operator,
      steps.payBank,
      {
        title: 'The money goes out',
        text: 'Once your transfer arrives the order is marked paid and the service sends the money to the IBAN in the order. The completed order shows the ID of the payout.',
      },
    ],
    requirements: [
      'A bank account to pay from: in Ukraine for UAH, in the EU for EUR.',
      'The recipient’s IBAN and name.',
      'Your e-mail address and full name.',
      'The payment reference from the order, to put in your transfer.',
    ],
    limits: [
      limits.operator,
      limits.rateFixed,
      limits.window,
      limits.minMax,
      'Your transfer must carry the payment reference from the order; without it the payment takes longer to match.',
    ],
    faq: [
      {
        q: 'Can I send money to someone else’s account?',
        a: 'Yes. Enter their IBAN as the payout account and mention their name in the purpose. Send only to people you know: bank transfers cannot be reversed.',
      },
      {
        q: 'Does the money go through crypto?',
        a: 'Not for you. UAH → EUR is a bank-to-bank direction: you pay by transfer and the recipient gets a transfer. Crypto is involved only if you choose a crypto direction.',
      },
      {
        q: 'When do the euros arrive?',
        a: 'Orders with UAH are handled from 09:00 to 23:00 Kyiv time. After your hryvnias arrive the operator sends the euros; when they are credited depends on the receiving bank.',
      },
      {
        q: 'Why do I need the payment reference?',
        a: 'It links your transfer to your order. Copy it exactly from the order page into the purpose of your transfer.',
      },
      faq.cancel,
      faq.late,
    ],
    cta: { label: 'Send UAH, receive EUR', from: 'UAH', to: 'EUR' },
  },

  'anonymous-crypto-purchase': {
    title: 'Buy crypto anonymously',
    metaTitle: 'Buy crypto anonymously for cash: BTC, XMR, USDT',
    metaDescription:
      'Buy BTC, XMR, USDT and other coins for cash or by bank transfer with just an e-mail address. No registration forms; documents only if an AML check requires them.',
    lead: 'Buy BTC, XMR, USDT and other coins for cash or by bank transfer, with just an e-mail address: no registration forms, and documents only if an AML check requires them.',
    sections: [
      {
        heading: 'How private it is',
        bullets: [
          'To start you need only an e-mail address; the quick e-mail sign-in creates your account.',
          'Paying in cash keeps any bank out of the deal on your side.',
          'The coins go to a wallet you choose; use a fresh address that you control.',
          'The order asks for a name for the operator; identity documents are requested only when the AML/KYC policy requires it.',
        ],
      },
      {
        heading: 'Which coin to buy',
        bullets: [
          'BTC: the most widely accepted coin, for savings and payments.',
          'XMR (Monero): private by design; amounts and addresses are not public on its blockchain.',
          'USDT (TRC20): dollar value with fast, cheap transfers.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with cash USD → BTC. Choose cash EUR, or a bank currency such as EUR or UAH, and the coin you want.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail, a name and the address of your wallet for the coin (for USDT, a TRC20 address).',
      },
      steps.operator,
      steps.payCash,
      steps.payoutCrypto,
    ],
    requirements: [
      'Cash in US dollars or euros, or a bank account.',
      'An e-mail address.',
      'A wallet you control for the coin you buy; for USDT, a TRC20 address.',
      'For cash: time between 09:00 and 23:00 Kyiv time.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.window, limits.minMax, limits.trc20],
    faq: [
      {
        q: 'Do I have to show an ID?',
        a: 'Not for ordinary orders. Under our AML/KYC policy we may ask for identification in particular cases, for example when a payment is flagged during a check.',
      },
      {
        q: 'Which wallet should I use?',
        a: 'A wallet whose keys you hold, not an account on another exchange, which may ask where the coins came from. For XMR use a Monero wallet; for USDT, a TRC20 address.',
      },
      {
        q: 'Where do I hand over the cash?',
        a: 'At a cash point the operator names for your order, between 09:00 and 23:00 Kyiv time. Orders created after 22:30 are handled the next morning.',
      },
      {
        q: 'Can I pay by bank transfer instead?',
        a: 'Yes: choose EUR or UAH on the sending side and pay to the bank details on the order page. The transfer then comes from your own account, of course.',
      },
      faq.account,
    ],
    cta: { label: 'Buy BTC for cash', from: 'CASHUSD', to: 'BTC' },
  },

  'anonymous-domain-purchase': {
    title: 'Buy a domain anonymously with crypto',
    metaTitle: 'Buy a domain anonymously with crypto',
    metaDescription:
      'Register a domain without a bank card in your name: pay a crypto-friendly registrar straight from the exchange, or any registrar with the Stealth Virtual Card.',
    lead: 'Register a domain without a bank card in your name: pay a registrar that accepts crypto straight from the exchange, or pay any registrar with the Stealth Virtual Card.',
    sections: [
      {
        heading: 'Two ways to pay',
        bullets: [
          'The registrar accepts crypto: exchange your coin into the one it asks for, with its invoice address as the payout wallet and the invoice amount in the You Get field.',
          'The registrar takes cards only: pay with the Stealth Virtual Card, topped up with USDT (TRC20).',
        ],
      },
      {
        heading: 'Keep the domain private',
        bullets: [
          'Turn on WHOIS privacy (many registrars include it free) so your name and address are not published.',
          'Use a separate e-mail address for the registrar account.',
          'Pay for several years at once if you want fewer renewals.',
          'Some country-code domains require real owner data; a generic domain such as .com or .net is easier to keep private.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with XMR → BTC. Choose the coin the registrar accepts and enter the exact invoice amount in the You Get field.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and the registrar’s invoice address as the payout wallet; as the reason, the invoice number.',
      },
      steps.operator,
      steps.payCrypto,
      {
        title: 'The registrar is paid',
        text: 'The service sends the coins straight to the invoice address. The completed order shows the transaction ID, which the registrar’s support can look up.',
      },
    ],
    requirements: [
      'The registrar’s invoice with the address and exact amount, or a Stealth Virtual Card.',
      'XMR, BTC or another supported coin.',
      'An e-mail address.',
    ],
    limits: [
      limits.operator,
      limits.crypto,
      'Check how long the registrar’s invoice stays valid: details take 2–10 minutes and processing up to about an hour.',
      limits.rateFixed,
      limits.minMax,
    ],
    faq: [
      {
        q: 'What if the invoice expires before the payout?',
        a: 'That depends on the registrar: some credit a late payment to your balance, others need a support ticket. To avoid it, pay into your own wallet first and then pay the invoice yourself.',
      },
      {
        q: 'Why not pay the registrar from my wallet directly?',
        a: 'If you already hold the coin it asks for, do. The exchange helps when you hold another coin, for example XMR, and the registrar accepts only BTC.',
      },
      {
        q: 'Is WHOIS privacy enough?',
        a: 'It hides your details from the public WHOIS. The registrar still knows what you give it, so use an e-mail address and details you are comfortable sharing.',
      },
      faq.account,
      faq.aml,
    ],
    cta: { label: 'Pay a registrar from XMR', from: 'XMR', to: 'BTC' },
  },

  'travel-and-tickets-payment': {
    title: 'Pay for travel and tickets with crypto',
    metaTitle: 'Pay for flights, hotels and tickets with crypto',
    metaDescription:
      'Pay flights, hotels, tours and event tickets with the Stealth Virtual Card funded from crypto, or pay a travel agency’s invoice in euros from USDT or BTC.',
    lead: 'Flights, hotels, trains, tours and event tickets: book online with the Stealth Virtual Card funded from crypto, or pay a travel agency’s invoice in euros.',
    sections: [
      {
        heading: 'Ways to pay',
        bullets: [
          'Online bookings with airlines, hotels, booking sites and ticket sellers: the Stealth Virtual Card, topped up with USDT (TRC20).',
          'A travel agency’s or tour operator’s invoice: crypto → EUR to the agency’s IBAN.',
          'Cash for the trip: crypto → cash US dollars or euros at a cash point, between 09:00 and 23:00 Kyiv time.',
        ],
      },
      {
        heading: 'Travel tips',
        bullets: [
          'Hotels and car rental desks often ask for a physical card at check-in for a deposit; choose bookings that are fully prepaid online.',
          'If plans may change, book refundable fares: refunds are made by the airline or agency to the way you paid.',
          'Top up a little more than the fare: currency conversion and baggage or seat fees add up.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with USDT (TRC20) → EUR for an agency invoice. For a card top-up choose USDT (TRC20) as the coin you receive.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and full name, the agency’s IBAN as the payout account and the booking number as the reason.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The booking or the agency’s invoice with its IBAN, or a Stealth Virtual Card for online bookings.',
      'Your e-mail address and full name.',
      'USDT, BTC or another supported coin.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.window, limits.minMax],
    faq: [
      {
        q: 'Can I pay for several travellers?',
        a: 'Yes. One agency invoice is one order, whatever the number of travellers; with the card you pay each booking as usual.',
      },
      {
        q: 'What about refunds?',
        a: 'Refunds are handled by the airline, hotel or agency under their rules. Read them before paying, and prefer refundable fares if your plans may change.',
      },
      {
        q: 'How early should I pay an agency invoice?',
        a: 'At least a day before the agency’s deadline: details come in 2–10 minutes and the crypto is processed within about an hour, but the bank transfer then needs time to be credited.',
      },
      faq.account,
      faq.levels,
    ],
    cta: { label: 'Pay a travel invoice from USDT', from: 'USDTTRC20', to: 'EUR' },
  },

  'subscription-global-services': {
    title: 'Pay for global subscriptions with crypto',
    metaTitle: 'Pay global subscriptions with crypto: streaming, software, AI',
    metaDescription:
      'Pay streaming, music, software, AI tools and cloud storage with the Stealth Virtual Card topped up from LTC, BTC, ETH or other coins, where your bank card is refused.',
    lead: 'Streaming, music, software, AI tools and cloud storage: pay international subscriptions with the Stealth Virtual Card topped up from crypto, wherever your bank card is refused.',
    sections: [
      {
        heading: 'When it helps',
        bullets: [
          'Foreign services decline your bank’s cards.',
          'You do not want recurring charges tied to your bank account.',
          'You earn in crypto and want to pay from it directly.',
        ],
      },
      {
        heading: 'Managing subscriptions',
        bullets: [
          'Top up the card for a few months at once: one exchange covers several renewals.',
          'Turn off auto-renewal in the service if you do not want the next charge.',
          'A few services refuse virtual or prepaid cards; try a monthly plan before paying for a year.',
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
        text: 'The exchange opens with LTC → USDT (TRC20); pick your own coin if it is another. Enter the amount, your e-mail and the card’s top-up address as the payout wallet.',
      },
      steps.operator,
      steps.payCrypto,
      {
        title: 'Subscribe',
        text: 'Once the USDT reaches the card (the completed order shows the transaction ID), add the card in the service’s billing settings.',
      },
    ],
    requirements: [
      'A Stealth Virtual Card, or a request for one.',
      'LTC, BTC, ETH or another supported coin.',
      'An e-mail address.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.trc20, limits.minMax],
    faq: [
      {
        q: 'Which services work?',
        a: 'Most services that accept card payments online. A few refuse virtual or prepaid cards; a declined payment is not charged.',
      },
      {
        q: 'Can I pay for an annual plan?',
        a: 'Yes, as long as the card holds the full amount. Add a small margin if the service charges in another currency.',
      },
      {
        q: 'What if the balance runs out?',
        a: 'The renewal is declined and the service usually pauses the subscription. Top up the card with a new exchange and retry the payment in the service.',
      },
      faq.account,
      faq.aml,
    ],
    cta: { label: 'Top up the card from LTC', from: 'LTC', to: 'USDTTRC20' },
  },

  'crypto-powered-invoice-payments': {
    title: 'Pay any SEPA invoice in crypto',
    metaTitle: 'Pay any SEPA invoice in crypto: BTC, USDT, XMR to EUR',
    metaDescription:
      'Pay an invoice from any company in the SEPA area in euros from BTC, USDT, XMR or other coins. The recipient gets an ordinary SEPA transfer with the invoice number.',
    lead: 'Pay an invoice from any company in the SEPA area (suppliers, contractors, services) in euros from BTC, USDT, XMR or another coin. The recipient gets an ordinary SEPA transfer.',
    sections: [
      {
        heading: 'What you can pay',
        paragraphs: [
          'Any invoice payable to an IBAN in the SEPA area: the EU and EEA countries, Switzerland, the United Kingdom and a few more.',
        ],
        bullets: [
          'Supplier and contractor invoices.',
          'Freelancer and agency fees.',
          'Memberships, courses and services invoiced in euros.',
        ],
      },
      {
        heading: 'Get the invoice paid correctly',
        bullets: [
          'Enter the invoice total in the You Get field, so exactly that sum is sent.',
          'Copy the IBAN from the invoice itself; invoice fraud often changes nothing but the IBAN in a follow-up e-mail.',
          'Put the invoice number in the Reason field: the operator uses it as the purpose, and the recipient matches the payment by it.',
        ],
      },
    ],
    steps: [
      {
        title: 'Choose the pair and the amount',
        text: 'The exchange opens with BTC → EUR; pick USDT, XMR or another coin if you pay with it. Enter the invoice total in the You Get field.',
      },
      {
        title: 'Create the order',
        text: 'Give your e-mail and full name, the recipient’s IBAN as the payout account and the invoice number as the reason.',
      },
      steps.operator,
      steps.payCrypto,
      steps.payoutBank,
    ],
    requirements: [
      'The invoice: recipient name, IBAN, invoice number and amount.',
      'Your e-mail address and full name.',
      'BTC, USDT, XMR or another supported coin.',
    ],
    limits: [limits.operator, limits.rateFixed, limits.crypto, limits.minMax, limits.aml],
    faq: [
      {
        q: 'Which coins can I pay with?',
        a: 'BTC, ETH, XMR, USDT (TRC20 or ERC20), USDC, LTC, TRX, SOL, TON, BNB and DOGE exchange straight to EUR; other coins go through BTC or USDT (TRC20).',
      },
      {
        q: 'The invoice is not in euros. Can I still pay it?',
        a: 'Yes, in GBP, CHF, PLN or CZK, exchanged from BTC or USDT (TRC20), as long as the account has an IBAN.',
      },
      {
        q: 'Does the recipient see that I paid with crypto?',
        a: 'They see a bank transfer in euros with the invoice number in the purpose. Let them know the payment comes from a different sender than your own account.',
      },
      faq.aml,
      faq.levels,
    ],
    cta: { label: 'Pay an invoice from BTC', from: 'BTC', to: 'EUR' },
  },
};
