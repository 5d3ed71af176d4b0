import { loadVendor } from "../providers/load-vendor.ts";
import type { TelephonyAdapter } from "./types.ts";

/** The telephony adapter of a vendor, or null when the vendor has none (or is unknown). */
export async function loadTelephony(id: string): Promise<TelephonyAdapter | null> {
  return (await loadVendor(id))?.telephony ?? null;
}
