import { detectPii, type PiiDetectOptions, type PiiKind } from "./pii-detector.ts";

/**
 * One call's masking of personal data: each value found becomes a placeholder ([EMAIL_1], [CARD_1])
 * that stays the same for the whole call, and the vault remembers, in memory only and only for the
 * call, what each placeholder stands for, so the assistant can still use what the caller said.
 */

const LABELS: Record<PiiKind, string> = {
  card: "CARD",
  iban: "IBAN",
  national_id: "ID",
  email: "EMAIL",
  phone: "PHONE",
  date_of_birth: "DOB",
  name: "NAME",
};

const PLACEHOLDER = /\[(?:CARD|IBAN|ID|EMAIL|PHONE|DOB|NAME)_\d+\]/g;
/** The longest placeholder's start a stream may end on ("[EMAIL_12" is held for its "]"). */
const HELD_PREFIX = /\[[A-Z]*_?\d*$/;

export class PiiVault {
  private readonly tokenByValue = new Map<string, string>();
  private readonly valueByToken = new Map<string, string>();
  private readonly counts = new Map<PiiKind, number>();

  constructor(private readonly options: PiiDetectOptions = {}) {}

  /**
   * `text` with every piece of personal data replaced by its placeholder: values the call has
   * already seen (also as the assistant said them back), then whatever the detector finds.
   */
  mask(text: string): string {
    let known = text;
    for (const [key, token] of this.tokenByValue) {
      const value = key.slice(key.indexOf(":") + 1);
      if (value.length >= 3) known = replaceAll(known, value, token);
    }
    const spans = detectPii(known, this.options).filter((s) => !overlapsPlaceholder(known, s.start, s.end));
    let out = "";
    let at = 0;
    for (const span of spans) {
      out += known.slice(at, span.start) + this.tokenFor(span.kind, span.value);
      at = span.end;
    }
    return out + known.slice(at);
  }

  /** True when `text` holds personal data (found by the detector or seen before in the call). */
  holdsPii(text: string): boolean {
    return this.mask(text) !== text;
  }

  /** `text` with each placeholder of this call replaced by what it stands for; unknown ones stay. */
  unmask(text: string): string {
    return text.replace(PLACEHOLDER, (token) => this.valueByToken.get(token) ?? token);
  }

  private tokenFor(kind: PiiKind, value: string): string {
    const key = `${kind}:${value}`;
    const known = this.tokenByValue.get(key);
    if (known) return known;
    const n = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, n);
    const token = `[${LABELS[kind]}_${n}]`;
    this.tokenByValue.set(key, token);
    this.valueByToken.set(token, value);
    return token;
  }
}

/**
 * Un-masks a model's streamed reply: a placeholder split across chunks ("[EMA", "IL_1]") is held
 * back until it is whole, so what is spoken carries the value and never half a placeholder.
 */
export class StreamUnmasker {
  private held = "";

  constructor(private readonly vault: PiiVault) {}

  push(chunk: string): string {
    const text = this.held + chunk;
    const open = text.lastIndexOf("[");
    if (open >= 0 && text.indexOf("]", open) < 0 && HELD_PREFIX.test(text.slice(open)) && text.length - open <= 12) {
      this.held = text.slice(open);
      return this.vault.unmask(text.slice(0, open));
    }
    this.held = "";
    return this.vault.unmask(text);
  }

  /** What is still held, at the end of the reply. */
  flush(): string {
    const rest = this.vault.unmask(this.held);
    this.held = "";
    return rest;
  }
}

const WORD = /[\p{L}\p{N}]/u;

function replaceAll(text: string, value: string, token: string): string {
  const lower = text.toLowerCase();
  const needle = value.toLowerCase();
  let out = "";
  let at = 0;
  for (let i = lower.indexOf(needle); i >= 0; i = lower.indexOf(needle, i + 1)) {
    // A whole value only: the name "Ada" is not masked inside "Adam".
    const end = i + needle.length;
    if (i < at || WORD.test(text[i - 1] ?? "") || WORD.test(text[end] ?? "")) continue;
    out += text.slice(at, i) + token;
    at = end;
  }
  return out + text.slice(at);
}

function overlapsPlaceholder(text: string, start: number, end: number): boolean {
  for (const m of text.matchAll(PLACEHOLDER)) {
    const at = m.index ?? 0;
    if (start < at + m[0].length && at < end) return true;
  }
  return false;
}
