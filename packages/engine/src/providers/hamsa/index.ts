import { probeCheck } from "../shared/account-checks.ts";
import { cloudOptions } from "../shared/speech-options.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";
import { HamsaStt } from "./stt.ts";

/** The project name in `{ data: { name } }`, when the answer has one. */
function projectName(body: unknown): string | undefined {
  const data = typeof body === "object" && body !== null && "data" in body ? body.data : undefined;
  const name = typeof data === "object" && data !== null && "name" in data ? data.name : undefined;
  return typeof name === "string" && name ? name : undefined;
}

export default {
  stt: (options) => new HamsaStt(cloudOptions("hamsa", options)),
  testConnection: probeCheck(
    "hamsa",
    "https://api.tryhamsa.com",
    (key) => ({ authorization: `Token ${key}` }),
    "v1/projects/by-api-key",
    (body) => {
      const name = projectName(body);
      return name ? `Connected to Hamsa project "${name}".` : "Connected to Hamsa.";
    },
  ),
} satisfies VendorAdapters<"hamsa">;
