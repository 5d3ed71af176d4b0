import type { TelephonyAdapter } from "../telephony/types.ts";
import { loadVendor } from "./load-vendor.ts";

/** The telephony adapter of a vendor, or null when the vendor has none (or is unknown). */
export async function loadTelephony(id: string): Promise<TelephonyAdapter | null> {
  return (await loadVendor(id))?.telephony ?? null;
}
