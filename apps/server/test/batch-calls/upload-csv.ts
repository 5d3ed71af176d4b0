import type { TestApp } from "../harness.ts";

/** POSTs a CSV file to `url` (under /api/v1) as multipart, with the given text fields before it. */
export function uploadCsv(
  world: { t: TestApp; user: { token: string } },
  url: string,
  csv: string | Buffer,
  fields: Record<string, string> = {},
) {
  const boundary = "----parleytest";
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="contacts.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.isBuffer(csv) ? csv : Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return world.t.app.inject({
    method: "POST",
    url: `/api/v1${url}`,
    headers: {
      authorization: `Bearer ${world.user.token}`,
      "content-type": `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat(parts),
  });
}
