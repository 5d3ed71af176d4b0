import type { CsvImportResponse } from "@parley/contract";
import type { Database } from "../../db/client.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { type CheckedContacts, checkContacts, withoutExisting } from "./contact-list.ts";
import { contactCount, insertContacts, newContacts, numbersOf, requireRoom } from "./contacts.ts";
import { readContactsCsv } from "./csv-contacts.ts";
import { type CsvUpload, countryField } from "./csv-upload.ts";
import { blockedNumbers } from "./do-not-call.ts";
import type { BatchCallRow } from "./schema.ts";
import { requireAllowed, touchBatchCall } from "./service.ts";
import { summaryOf } from "./views.ts";

const PREVIEW_ROWS = 20;

const previewOf = (checked: CheckedContacts) =>
  checked.contacts.slice(0, PREVIEW_ROWS).map((c) => ({ line: c.line, number: c.number, variables: c.variables }));

/**
 * POST /batch-calls/{id}/import-csv: the file is read whole first (a malformed one is refused with
 * nothing imported), then its good rows are added in one transaction; invalid and duplicate rows
 * are reported line by line. With dry_run the report is all there is; a file that would take the
 * campaign past its contact cap is refused either way.
 */
export async function importContactsCsv(
  db: Database,
  tenant: TenantScope,
  batch: BatchCallRow,
  upload: CsvUpload,
): Promise<CsvImportResponse> {
  requireAllowed("add_numbers", batch);
  const country = countryField(upload.fields.default_country) ?? batch.defaultCountry;
  const dryRun = upload.fields.dry_run === "true";
  const { layout, rows } = readContactsCsv(upload.data, country);
  const read = checkContacts(rows, country);
  if (dryRun) {
    const checked = withoutExisting(read, await numbersOf(db, tenant, batch.id));
    requireRoom(await contactCount(db, tenant, batch.id), checked.contacts.length);
    const blocked = await blockedNumbers(
      db,
      tenant,
      checked.contacts.map((c) => c.number),
    );
    return {
      added: 0,
      removed: 0,
      duplicates: checked.duplicates,
      invalid: checked.invalid,
      do_not_call: checked.contacts.filter((c) => blocked.has(c.number)).map((c) => c.number),
      layout,
      preview: previewOf(checked),
      dry_run: true,
      batch_call: await summaryOf(db, tenant, batch),
    };
  }
  const { change, preview } = await db.transaction(async (tx) => {
    const checked = await newContacts(tx, tenant, batch.id, read);
    return { change: await insertContacts(tx, tenant, batch, checked), preview: previewOf(checked) };
  });
  const updated = await touchBatchCall(db, tenant, batch.id);
  return { ...change, layout, preview, dry_run: false, batch_call: await summaryOf(db, tenant, updated) };
}
