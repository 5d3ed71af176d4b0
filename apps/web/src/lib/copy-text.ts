/**
 * Puts the text on the clipboard; false when the browser refuses (no permission), in which case
 * the text can still be selected where it is shown.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
