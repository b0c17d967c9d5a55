import { useEffect, useRef, type MutableRefObject } from 'react';

/**
 * A ref that always holds the latest `value`, for effects that must read it when they run
 * without restarting each time it changes (a handler set up once per screen, a form reset only
 * when its dialog opens). Declare it before the effects that read it: effects run in order.
 */
export function useLatest<T>(value: T): MutableRefObject<T> {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}
