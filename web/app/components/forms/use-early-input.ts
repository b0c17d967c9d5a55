import { useEffect, useRef, useState, type RefObject } from 'react';

import { HELD_SUBMIT_ATTRIBUTE } from './hold-submits-script.ts';

/*
 * What a person typed into the server-rendered form before React hydrated it, and the submit
 * the inline script held meanwhile (hold-submits-script.ts, decision 047).
 *
 * React 18 hydrates a controlled input without reading it: its state keeps the server's value
 * while the field shows what was typed, and the next render writes the state back over the
 * text. So on mount the form reads its own controls once and hands the ones that differ from
 * the server's HTML to `adopt`, which puts them in state. Then a held submit is sent again,
 * after that state has rendered, so the form's handler sees the values the person sees.
 */

/** A control's value as typed: text, or a checkbox's state. */
export type EarlyValue = string | boolean;

/** The named controls of `form` whose value is not the one the server rendered. */
export function typedBeforeHydration(form: HTMLFormElement): Record<string, EarlyValue> {
  const typed: Record<string, EarlyValue> = {};
  for (const element of Array.from(form.elements)) {
    if (element instanceof HTMLInputElement) {
      if (!element.name || ['hidden', 'submit', 'button', 'reset'].includes(element.type)) continue;
      if (element.type === 'checkbox') {
        if (element.checked !== element.defaultChecked) typed[element.name] = element.checked;
      } else if (element.type === 'radio') {
        if (element.checked && !element.defaultChecked) typed[element.name] = element.value;
      } else if (element.value !== element.defaultValue) {
        typed[element.name] = element.value;
      }
    } else if (element instanceof HTMLTextAreaElement) {
      if (element.name && element.value !== element.defaultValue)
        typed[element.name] = element.value;
    } else if (element instanceof HTMLSelectElement) {
      const changed = Array.from(element.options).some(
        (option) => option.selected !== option.defaultSelected,
      );
      if (element.name && changed) typed[element.name] = element.value;
    }
  }
  return typed;
}

/**
 * The ref for a form that keeps early input: `adopt` gets what was typed before hydration (by
 * control name; nothing when nothing was), and a submit held before hydration is sent once.
 */
export function useEarlyInput(
  adopt: (typed: Record<string, EarlyValue>) => void,
): RefObject<HTMLFormElement> {
  const formRef = useRef<HTMLFormElement>(null);
  const adoptRef = useRef(adopt);
  adoptRef.current = adopt;
  const [resubmit, setResubmit] = useState(false);

  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const typed = typedBeforeHydration(form);
    if (Object.keys(typed).length > 0) adoptRef.current(typed);
    if (form.hasAttribute(HELD_SUBMIT_ATTRIBUTE)) {
      form.removeAttribute(HELD_SUBMIT_ATTRIBUTE);
      // The script marked it busy; React's own aria-busy takes over from here.
      form.setAttribute('aria-busy', 'false');
      setResubmit(true);
    }
  }, []);

  useEffect(() => {
    if (!resubmit) return;
    setResubmit(false);
    formRef.current?.requestSubmit();
  }, [resubmit]);

  return formRef;
}

/** Picks the text values among early input (checkboxes are booleans). */
export function earlyText(typed: Record<string, EarlyValue>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(typed).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}
