import { describe, expect, it } from 'vitest';

import { base64ToBytes, receiptFilename } from './receipt-pdf.ts';

describe('the receipt PDF', () => {
  it('decodes base64 into the bytes', () => {
    const pdf = Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n', 'latin1');
    expect(Buffer.from(base64ToBytes(pdf.toString('base64')))).toEqual(pdf);
    expect(Buffer.from(base64ToBytes('JVBE\nRi0x'))).toEqual(Buffer.from('%PDF-1'));
  });

  it('offers a safe file name ending in .pdf', () => {
    expect(receiptFilename('receipt-1042.pdf', 'x')).toBe('receipt-1042.pdf');
    expect(receiptFilename('../../etc/passwd', 'x')).toBe('..-..-etc-passwd.pdf');
    expect(receiptFilename('', 'receipt-7')).toBe('receipt-7.pdf');
    expect(receiptFilename(null, 'receipt-7')).toBe('receipt-7.pdf');
  });
});
