/**
 * A trunk's password is only ever sent (as REGISTER and INVITE digests) to the SIP server it was
 * saved with, as integrations' secrets follow their URL: moving `sip_host` to another server asks
 * for the password again.
 */

export const TRUNK_PASSWORD_AGAIN =
  "Enter the Password again: a saved secret is only sent to the SIP server it was saved with.";

/**
 * The server a host[:port] names, read as the SIP module reads `sip_host` (its default port 5060):
 * "Sip.Carrier.example" and "sip.carrier.example:5060" are one server.
 */
function serverOf(hostPort: string): string {
  const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(hostPort.trim());
  const host = (match?.[1] ?? hostPort).toLowerCase().replace(/\.$/, "");
  return `${host}:${match?.[2] ? Number(match[2]) : 5060}`;
}

/** Whether `next` names another SIP server (host or port) than `before`. */
export function movesSipServer(before: string, next: string | undefined): boolean {
  return next !== undefined && serverOf(before) !== serverOf(next);
}
