/** Saves a file the app made (a CSV, a PDF) as a download. */
export function downloadBlob(blob: Blob, name: string, win: Window = window): void {
  const url = URL.createObjectURL(blob);
  const link = win.document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The download has started from the URL; freeing it at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
