import { describe, expect, it } from "vitest";
import { CsvSyntaxError, guessSeparator, parseCsv, stripBom } from "./csv.ts";

describe("the CSV reader", () => {
  it("reads quoted separators, doubled quotes and line breaks inside quotes, with CRLF", () => {
    const rows = parseCsv('name,note\r\n"Ada, Countess","said ""hi""\nthen left"\r\n\r\nGrace,ok\r\n');
    expect(rows).toEqual([
      { line: 1, cells: ["name", "note"] },
      { line: 2, cells: ["Ada, Countess", 'said "hi"\nthen left'] },
      { line: 5, cells: ["Grace", "ok"] },
    ]);
  });

  it("guesses ; and tab separators from the first line, outside quotes", () => {
    expect(guessSeparator('"a,b";c;d\n')).toBe(";");
    expect(guessSeparator("a\tb\n")).toBe("\t");
    expect(guessSeparator("phone\n")).toBe(",");
    expect(stripBom("\uFEFFphone")).toBe("phone");
  });

  it("refuses an unclosed quote and text after a closing quote, naming the line", () => {
    expect(() => parseCsv('a\n"open\nb\n')).toThrow(new CsvSyntaxError(2, "a quoted field is never closed"));
    expect(() => parseCsv('a\n"x"y\n')).toThrow(CsvSyntaxError);
    expect(() => parseCsv('a\nx"y\n')).toThrow("line 2: a quote inside an unquoted field");
  });
});
