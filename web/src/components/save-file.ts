/**
 * Hands bytes to the browser's download as a file named `filename`: an object URL clicked by a
 * hidden link. The one way the app saves a file (originals, conversation records).
 */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = filename;
    anchor.hidden = true;
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
  } finally {
    // The click has handed the bytes to the browser's download; the URL is not needed after.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
