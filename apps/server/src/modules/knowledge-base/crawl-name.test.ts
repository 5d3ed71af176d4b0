import { describe, expect, it } from "vitest";
import { crawlName } from "./crawl-name.ts";

const name = (url: string) => crawlName(new URL(url));

describe("crawlName", () => {
  it("is the host and path as one reads them", () => {
    expect(name("https://docs.example.com/guide/")).toBe("docs.example.com/guide");
    expect(name("https://www.example.com/")).toBe("example.com");
    expect(name("http://127.0.0.1:8080/blog?page=2#top")).toBe("127.0.0.1:8080/blog?page=2");
    expect(name("https://xn--bcher-kva.example/%C3%BCber-uns")).toBe("bücher.example/über-uns");
  });

  it("keeps the host and the end of a long path, at most 80 characters", () => {
    const long = name(`https://docs.example.com/${"chapter/".repeat(12)}install/linux`);
    expect(long).toBe("docs.example.com/…/chapter/chapter/chapter/chapter/chapter/chapter/install/linux");
    expect(Array.from(long).length).toBeLessThanOrEqual(80);
  });
});
