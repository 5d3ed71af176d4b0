import { loadVendor } from "../providers/load-vendor.ts";
import { type CallingAdapter, isCallingAdapter } from "./types.ts";

/** The calling adapter of a vendor, or null when the vendor has none (or is unknown). */
export async function loadCalling(id: string): Promise<CallingAdapter | null> {
  const vendor = await loadVendor(id);
  if (!vendor || !("calling" in vendor)) return null;
  return isCallingAdapter(vendor.calling) ? vendor.calling : null;
}
