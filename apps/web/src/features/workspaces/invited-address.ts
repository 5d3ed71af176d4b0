/**
 * Whether the signed-in account uses another address than the one an invitation was sent to
 * (case-insensitively): the server refuses such an account, so the page offers to sign in with
 * the invited address instead of a join button that would fail. Unknown on either side: false.
 */
export function signedInWithOtherAddress(current: string | undefined, invited: string | undefined): boolean {
  if (!current || !invited) return false;
  return current.trim().toLowerCase() !== invited.trim().toLowerCase();
}
