import { type FormEvent, useRef, useState } from "react";
import type { Checked } from "./login-checks.ts";

/**
 * A small form of text fields checked by a plain function, behaving as the react-hook-form forms
 * elsewhere do: nothing is flagged until the first submit; from then on every change is checked
 * again; a submit with a bad field focuses the first one and sends nothing. (react-hook-form is
 * 16 KB compressed the sign-in page's first load does without.)
 */
export function useCheckedForm<Field extends string>(
  initial: Record<Field, string>,
  check: (values: Record<Field, string>) => Checked<Field>,
) {
  const [values, setValues] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  // Filled by the fields' refs in the order they render, so the first bad one can take focus.
  const inputs = useRef(new Map<Field, HTMLInputElement>());
  const verdict = check(values);

  const field = (name: Field) => ({
    name,
    value: values[name],
    onChange: (value: string) =>
      setValues((current) => {
        const next = { ...current };
        next[name] = value;
        return next;
      }),
    error: submitted && !verdict.ok ? verdict.errors[name] : undefined,
    inputRef: (input: HTMLInputElement | null) => {
      if (input) inputs.current.set(name, input);
      else inputs.current.delete(name);
    },
  });

  const onSubmit = (send: (values: Record<Field, string>) => Promise<void>) => (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (verdict.ok) {
      void send(verdict.values);
      return;
    }
    const errors = verdict.errors;
    for (const [name, input] of inputs.current) {
      if (errors[name]) {
        input.focus();
        break;
      }
    }
  };

  return { field, onSubmit };
}
