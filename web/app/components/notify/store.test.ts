import { beforeEach, describe, expect, it } from 'vitest';

import { notify, useNotifications } from './store.ts';

describe('notify', () => {
  beforeEach(() => notify.clear());

  it('queues successes and errors; texts left out fall back to the generic ones', () => {
    notify.success();
    notify.error();
    notify.error('Saved nothing', 'Oops');
    expect(useNotifications.getState().items).toEqual([
      { id: expect.any(Number) as number, kind: 'success' },
      { id: expect.any(Number) as number, kind: 'error' },
      {
        id: expect.any(Number) as number,
        kind: 'error',
        title: 'Oops',
        description: 'Saved nothing',
      },
    ]);
  });

  it('dismisses by id and keeps only the newest few', () => {
    const first = notify.success('one');
    for (const text of ['two', 'three', 'four', 'five']) notify.success(text);
    const items = useNotifications.getState().items;
    expect(items.map((item) => item.description)).toEqual(['two', 'three', 'four', 'five']);
    expect(items.some((item) => item.id === first)).toBe(false);
    notify.dismiss(items[0]!.id);
    expect(useNotifications.getState().items).toHaveLength(3);
  });
});
