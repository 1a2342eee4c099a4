// The trader's notice for a damaged wallet file the wallet store set aside: which file, where it went and what to
// do, told once per file (a file that could not be renamed is met again by every listing, and is not re-told).
import type { SetAsideWallet } from './wallet-store';

/** The sentence for one set-aside file: the new name when it was moved, else that it was left where it is. */
export function setAsideSentence({ file, movedTo }: SetAsideWallet): string {
  return movedTo !== file
    ? `Your wallet file was damaged and set aside as ${movedTo}; restore from your backup or import the key again.`
    : `Your wallet file ${file} is damaged and could not be read or moved; restore from your backup or import the key again.`;
}

/** A listener for the wallet store that tells each damaged file once, through `tell`. */
export function setAsideNotices(tell: (message: string) => void): (setAside: SetAsideWallet) => void {
  const told = new Set<string>();
  return (setAside) => {
    if (told.has(setAside.file)) return;
    told.add(setAside.file);
    tell(setAsideSentence(setAside));
  };
}
