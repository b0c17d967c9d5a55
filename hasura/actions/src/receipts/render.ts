import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import PDFDocument from 'pdfkit';

import type { ReceiptTexts } from './texts.ts';

/*
 * The receipt as a one-page A4 PDF (pdfkit). The text is set in DejaVu Sans (the
 * `dejavu-fonts-ttf` package), embedded as a subset: it covers Latin, Cyrillic (Russian and
 * Ukrainian) and the usual currency signs, and PDF viewers need nothing installed. The
 * document's dates come from the order, so the same order gives the same file.
 */

const require = createRequire(import.meta.url);
/** Read once, on the first receipt. */
let fonts: { regular: Buffer; bold: Buffer } | undefined;
function loadFonts() {
  fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return fonts;
}

/** Everything the receipt shows, display-ready. */
export interface ReceiptContent {
  texts: ReceiptTexts;
  /** The PDF's language tag (`en`, `ru`, `uk-UA`). */
  language: string;
  number: string;
  orderId: string;
  completedAt: Date;
  /** E.g. `0.015 BTC`. */
  sent: string;
  /** E.g. `1000.5 USDT (TRC20)`. */
  received: string;
  /** E.g. `1 BTC = 66700.5 USDT`. */
  rate: string;
  /** The payout line: its label (tx id, bank or cash reference) and value. */
  payout: { label: string; value: string };
  /** Where the payout went (wallet address or IBAN), if anywhere. */
  payoutTo: string | null;
  payoutMemo: string | null;
}

/** `2026-01-02 13:45 UTC`. */
export const utcTime = (date: Date): string =>
  `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const MARGIN = 56;
const INK = '#111827';
const MUTED = '#6b7280';

/** The PDF of a receipt. */
export async function renderReceiptPdf(content: ReceiptContent): Promise<Buffer> {
  const { texts } = content;
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    lang: content.language,
    displayTitle: true,
    info: {
      Title: `${texts.title} ${content.number}`,
      Author: texts.brand,
      Subject: `${texts.order} ${content.number}`,
      CreationDate: content.completedAt,
      ModDate: content.completedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const width = doc.page.width - 2 * MARGIN;

  doc.font('bold').fontSize(22).fillColor(INK).text(texts.brand, { width });
  doc.moveDown(0.4);
  doc.font('bold').fontSize(16).text(`${texts.title} · ${texts.order} ${content.number}`, {
    width,
  });
  doc.moveDown(0.6);
  const ruleY = doc.y;
  doc
    .moveTo(MARGIN, ruleY)
    .lineTo(MARGIN + width, ruleY)
    .lineWidth(0.75)
    .strokeColor('#d1d5db')
    .stroke();
  doc.moveDown(1);

  const row = (label: string, value: string, size = 12) => {
    doc.font('regular').fontSize(9).fillColor(MUTED).text(label, { width });
    doc.moveDown(0.15);
    doc.font('regular').fontSize(size).fillColor(INK).text(value, { width });
    doc.moveDown(0.8);
  };
  row(texts.completed, utcTime(content.completedAt));
  row(texts.sent, content.sent, 14);
  row(texts.received, content.received, 14);
  row(texts.rate, content.rate);
  row(content.payout.label, content.payout.value, 10);
  if (content.payoutTo) row(texts.payoutTo, content.payoutTo, 10);
  if (content.payoutMemo) row(texts.memo, content.payoutMemo, 10);
  row(texts.orderId, content.orderId, 10);

  doc.moveDown(1);
  doc.font('regular').fontSize(8).fillColor(MUTED).text(texts.footer, { width });
  doc.end();
  return done;
}
