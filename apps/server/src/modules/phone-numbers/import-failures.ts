import { providerLabel } from "@parley/contract";
import { MissingCredentialError, TelephonyError } from "@parley/engine";
import { AppError } from "../../lib/app-error.ts";
import { PhoneServiceError } from "./vendor-account.ts";

/**
 * Why listing a vendor account's numbers failed, in words that say what to fix: keys the vendor
 * refused (or that lack a field) are the user's to correct, a 400; an API the server could not
 * reach (a wrong base URL, no way out to the internet) or a vendor fault is a 502 that names the
 * address tried. One generic sentence for both sent people to re-type keys that were fine.
 */

/** The vendor's own sentence, without the "<provider>: HTTP <status>: " or "network error: " the adapters put first. */
function vendorDetail(error: TelephonyError): string {
  return error.message
    .replace(new RegExp(`^${error.provider}: `), "")
    .replace(/^HTTP \d+: /, "")
    .replace(/^network error: /, "")
    .replace(/[.\s]+$/, "");
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`.replace(/[.\s]*$/, ".");

/** True when the request never got an answer: no status, and the address it was sent to. */
export function isUnreachable(error: unknown): error is TelephonyError & { origin: string } {
  return error instanceof TelephonyError && error.status === undefined && error.origin !== undefined;
}

/** The failure as the import answers it: an AppError (400) or a PhoneServiceError (502); anything else unchanged. */
export function importFailure(error: unknown): unknown {
  if (error instanceof MissingCredentialError) return new AppError("bad_request", error.detail);
  if (!(error instanceof TelephonyError)) return error;
  const label = providerLabel(error.provider);
  const detail = vendorDetail(error);
  if (error.kind === "credentials") {
    // Without a status the adapter refused before asking (a field missing, a key that is no key).
    const text = error.status ? `${label} refused the credentials: ${detail} (HTTP ${error.status})` : detail;
    return new AppError("bad_request", sentence(text));
  }
  if (isUnreachable(error))
    return new PhoneServiceError(sentence(`Could not reach ${label} at ${error.origin}: ${detail}`), error);
  const text = error.status ? `${label} answered HTTP ${error.status}: ${detail}` : `${label} ${detail}`;
  return new PhoneServiceError(sentence(text), error);
}
