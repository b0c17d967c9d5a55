import { describe, expect, it } from 'vitest';

import { GraphqlRequestError } from '@app/client/graphql/request.ts';

import { feedbackFailure, replySubject, validateFeedback } from './feedback.ts';

const refusal = (code: string, message = 'refused', extra: Record<string, unknown> = {}) =>
  new GraphqlRequestError([{ message, extensions: { code, ...extra } }]);

describe('validateFeedback', () => {
  it('trims the fields and needs all three, an e-mail and the action’s lengths', () => {
    expect(
      validateFeedback({ email: ' ann@example.com ', subject: ' Hi ', message: ' Text ' }),
    ).toEqual({ ok: true, data: { email: 'ann@example.com', subject: 'Hi', message: 'Text' } });
    expect(validateFeedback({ email: '', subject: ' ', message: '' })).toEqual({
      ok: false,
      errors: {
        email: 'common:validation.required',
        subject: 'common:validation.required',
        message: 'common:validation.required',
      },
    });
    expect(
      validateFeedback({ email: 'ann@', subject: 'x'.repeat(201), message: 'x'.repeat(5001) }),
    ).toEqual({
      ok: false,
      errors: {
        email: 'common:validation.email',
        subject: 'staffCustomers:feedback.errors.tooLong',
        message: 'staffCustomers:feedback.errors.tooLong',
      },
    });
  });
});

describe('feedbackFailure', () => {
  it('puts a refused field next to that field', () => {
    expect(
      feedbackFailure(refusal('invalid-input', 'email: Invalid email', { field: 'email' })),
    ).toEqual({ field: 'email', message: 'common:validation.email' });
    expect(
      feedbackFailure(
        refusal('invalid-input', 'subject: at most 200 characters.', { field: 'subject' }),
      ),
    ).toEqual({ field: 'subject', message: 'staffCustomers:feedback.errors.tooLong' });
    expect(
      feedbackFailure(
        refusal('invalid-input', 'message: The field is required.', { field: 'message' }),
      ),
    ).toEqual({ field: 'message', message: 'common:validation.required' });
  });

  it('says what the other refusals mean', () => {
    expect(feedbackFailure(refusal('too-frequent'))).toEqual({
      message: 'staffCustomers:feedback.errors.tooFrequent',
    });
    expect(feedbackFailure(refusal('duplicate'))).toEqual({
      message: 'staffCustomers:feedback.errors.duplicate',
    });
    expect(feedbackFailure(refusal('mail-not-sent'))).toEqual({
      message: 'staffCustomers:feedback.errors.mailNotSent',
    });
    expect(
      feedbackFailure(refusal('invalid-input', 'markHandled needs a supportRequestId.')),
    ).toEqual({ message: 'staffCustomers:feedback.errors.invalid' });
    expect(feedbackFailure(refusal('something-new'))).toEqual({
      message: 'staffCustomers:feedback.errors.unknown',
    });
    // A catalog code the form has no words of its own for: the catalog's message.
    expect(feedbackFailure(refusal('access-denied'))).toEqual({ message: 'errors:access-denied' });
    expect(feedbackFailure(new TypeError('Failed to fetch'))).toEqual({
      message: 'staffCustomers:feedback.errors.network',
    });
  });
});

describe('replySubject', () => {
  it('answers the request’s subject, or uses the default', () => {
    expect(replySubject('Late payout', 'Your request')).toBe('Re: Late payout');
    expect(replySubject('RE: Late payout', 'Your request')).toBe('RE: Late payout');
    expect(replySubject(null, 'Your request')).toBe('Your request');
  });
});
