import { describe, expect, it } from 'vitest';

import { AntiPhishingForm } from './anti-phishing.ts';
import { validateForm } from './fields.ts';

describe('the anti-phishing phrase', () => {
  it('is 4 to 64 characters once trimmed', () => {
    expect(validateForm(AntiPhishingForm, { phrase: '  blue heron 42  ' })).toEqual({
      ok: true,
      data: { phrase: 'blue heron 42' },
    });
    expect(validateForm(AntiPhishingForm, { phrase: 'abcd' }).ok).toBe(true);
    expect(validateForm(AntiPhishingForm, { phrase: 'x'.repeat(64) }).ok).toBe(true);
  });

  it('says which rule failed, "The field is required" first', () => {
    expect(validateForm(AntiPhishingForm, { phrase: '   ' })).toEqual({
      ok: false,
      errors: { phrase: 'common:validation.required' },
    });
    expect(validateForm(AntiPhishingForm, { phrase: ' abc ' })).toEqual({
      ok: false,
      errors: { phrase: 'trust:phishing.tooShort' },
    });
    expect(validateForm(AntiPhishingForm, { phrase: 'x'.repeat(65) })).toEqual({
      ok: false,
      errors: { phrase: 'trust:phishing.tooLong' },
    });
  });
});
