// Saves text the terminal made (a CSV export) as a file through the browser's own download, in Electron
// and browser mode alike: nothing is written by main. It sits below the component folders because the account
// tables and the Portfolio view (shown by both the account row and the trader profile) both save files.
export function downloadText(fileName: string, text: string | Uint8Array, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text as BlobPart], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy by the next task; the object URL is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `positions-2026-11-22T13-40.csv`: sortable, and safe in every file system. */
export function exportFileName(what: string, at = new Date()): string {
  return `${what}-${at.toISOString().slice(0, 16).replace(/:/g, '-')}.csv`;
}
