// Saves the activity export through the page's own download, in Electron and browser mode alike, the way
// account/download.ts saves the account tables' CSVs (imported from there it would close a circle between the
// account, profile and portfolio folders: the account row and the trader profile both show this view).
export function saveCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
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
