// Shares typed by the trader as exact 6-decimal base units: "12.5" is 12 500 000, never through a float.

/** Null when the text is not a number of shares with at most 6 decimals. */
export function sharesUnits(text: string): bigint | null {
  const match = /^([0-9]{1,12})(?:\.([0-9]{1,6}))?$/.exec(text.trim());
  if (!match) return null;
  return BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0'));
}
