import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';

import { exportFileName, isoUtc, toCsv } from './csv-export.ts';

describe('toCsv', () => {
  it('starts with a byte order mark and ends lines with CRLF', () => {
    const text = toCsv(['a', 'b'], [['1', 'Иван']]);
    expect(text.startsWith('\uFEFFa,b\r\n')).toBe(true);
    expect(text).toBe('\uFEFFa,b\r\n1,Иван\r\n');
  });

  it('neutralises cells a spreadsheet would run as a formula, line breaks included', () => {
    const hostile = [
      '=HYPERLINK("http://evil.example","x")',
      '+1+1',
      '-2+3',
      '@SUM(A1)',
      '\t=1',
      '\r=1',
      '=1+1\nsecond line',
    ];
    const text = toCsv(
      ['value'],
      hostile.map((each) => [each]),
    );
    const parsed = Papa.parse<string[]>(text.slice(1), { newline: '\r\n' }).data.slice(1, -1);
    expect(parsed.map((row) => row[0])).toEqual(hostile.map((each) => `'${each}`));
  });

  it('quotes commas, quotes and line breaks, and keeps amounts as exact strings', () => {
    const text = toCsv(
      ['name', 'amount'],
      [
        ['Doe, "J"\nJr', '0.123456789012345678'],
        [null, undefined],
      ],
    );
    expect(text).toBe('\uFEFFname,amount\r\n"Doe, ""J""\nJr",0.123456789012345678\r\n,\r\n');
  });
});

describe('isoUtc', () => {
  it('writes instants in UTC', () => {
    expect(isoUtc('2026-11-28T17:04:05.123456+02:00')).toBe('2026-11-28T15:04:05.123Z');
    expect(isoUtc(null)).toBe('');
  });
});

it('names the file by the moment of the export', () => {
  expect(exportFileName('orders', new Date('2026-11-28T15:04:05.999Z'))).toBe(
    'orders-2026-11-28T15-04-05Z.csv',
  );
});
