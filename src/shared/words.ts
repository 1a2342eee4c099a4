// Counts in words that read right, for notices in main and the renderer: "1 order", "2 orders", "no orders".

/** `n` things, singular for one: countOf(1, 'order') is "1 order", countOf(2, 'order') is "2 orders". */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A price in cents as the trader reads it: 0.41 is "41¢", 0.415 is "41.5¢". */
export function centsOf(price: number): string {
  return `${Number((price * 100).toFixed(1))}¢`;
}
