import * as z from 'zod';

/** A comma-separated variable as its trimmed, non-empty items (`a, b,,c` is a, b, c). */
export const commaList = () =>
  z.string().transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  );
