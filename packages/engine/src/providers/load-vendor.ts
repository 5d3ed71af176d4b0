import { providerDescriptor } from "@parley/contract";
import { ProviderError } from "./provider-error.ts";
import { isVendorAdapters, type VendorAdapters } from "./vendor-adapters.ts";

const loaded = new Map<string, Promise<VendorAdapters>>();

/**
 * The adapters of one vendor, from its folder `./<id>/index.ts`, loaded on first use and cached;
 * null for an id the contract does not describe. The template-literal import lets esbuild bundle every
 * folder (as a glob) while vitest and tsx resolve it at run time, so no list of vendors is kept here.
 */
export async function loadVendor(id: string): Promise<VendorAdapters | null> {
  // Only a provider the contract describes names a vendor folder.
  if (!providerDescriptor(id)) return null;
  let vendor = loaded.get(id);
  if (!vendor) {
    vendor = import(`./${id}/index.ts`).then((module: { default?: unknown }) => {
      if (!isVendorAdapters(module.default)) {
        throw new ProviderError(id, "the vendor folder does not export its adapters", false);
      }
      return module.default;
    });
    vendor.catch(() => loaded.delete(id));
    loaded.set(id, vendor);
  }
  return vendor;
}
