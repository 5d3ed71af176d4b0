import { expect, it, vi } from "vitest";

it("keeps zod from compiling parsers with eval, which the app's CSP forbids (and Chrome reports)", async () => {
  const compiled = vi.fn();
  vi.stubGlobal(
    "Function",
    new Proxy(Function, {
      construct(target, args) {
        compiled(args);
        return Reflect.construct(target, args);
      },
    }),
  );
  await import("./zod-without-eval.ts");
  const { z } = await import("zod");
  expect(z.object({ name: z.string(), count: z.number() }).parse({ name: "a", count: 1 })).toEqual({
    name: "a",
    count: 1,
  });
  expect(compiled).not.toHaveBeenCalled();
  vi.unstubAllGlobals();
});
