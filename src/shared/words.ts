// Counts in words that read right, for notices in main and the renderer: "1 order", "2 orders", "no orders".

/** `n` things, singular for one: countOf(1, 'order') is "1 order", countOf(2, 'order') is "2 orders". */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
