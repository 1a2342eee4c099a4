// Free-text search over events for /v1/agg/retrieve: TF-IDF vectors and cosine similarity in [0, 1].
// The real aggregator ranks by embedding similarity; a lexical cosine is the honest offline stand-in
// with the same contract (a score per event, best first, a threshold and a top-K).

const STOPWORDS = new Set(
  'a an and are at be by for in is it of on or the to will with what who which than this that'.split(' '),
);

export function tokenize(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .match(/[a-z0-9$]+/g) ?? []
  ).filter((w) => !STOPWORDS.has(w));
}

export interface SearchDocument<T> {
  item: T;
  text: string;
}

export class SearchIndex<T> {
  private readonly vectors: { item: T; weights: Map<string, number>; norm: number }[];
  private readonly idf: Map<string, number>;

  constructor(documents: readonly SearchDocument<T>[]) {
    const termCounts = documents.map((d) => counts(tokenize(d.text)));
    const documentFrequency = new Map<string, number>();
    for (const c of termCounts)
      for (const term of c.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    const n = documents.length;
    this.idf = new Map([...documentFrequency].map(([term, df]) => [term, Math.log(1 + n / df)]));
    this.vectors = documents.map((d, i) => {
      const weights = this.weigh(termCounts[i]!);
      return { item: d.item, weights, norm: norm(weights) };
    });
  }

  /** Documents with a similarity above `threshold` (and above 0), best first, at most `topK`. */
  search(query: string, topK = 10, threshold = 0): { item: T; score: number }[] {
    const q = this.weigh(counts(tokenize(query)));
    const qNorm = norm(q);
    if (qNorm === 0) return [];
    const scored = this.vectors.map((v) => {
      let dot = 0;
      for (const [term, w] of q) dot += w * (v.weights.get(term) ?? 0);
      return { item: v.item, score: v.norm === 0 ? 0 : Math.min(1, dot / (qNorm * v.norm)) };
    });
    return scored
      .filter((s) => s.score > 0 && s.score >= threshold)
      .sort((a, b) => b.score - a.score)
      .slice(0, Math.max(0, topK))
      .map((s) => ({ item: s.item, score: Number(s.score.toFixed(4)) }));
  }

  private weigh(termCounts: Map<string, number>): Map<string, number> {
    const weights = new Map<string, number>();
    for (const [term, count] of termCounts)
      weights.set(term, (1 + Math.log(count)) * (this.idf.get(term) ?? Math.log(2)));
    return weights;
  }
}

function counts(terms: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of terms) out.set(t, (out.get(t) ?? 0) + 1);
  return out;
}

function norm(weights: Map<string, number>): number {
  let sum = 0;
  for (const w of weights.values()) sum += w * w;
  return Math.sqrt(sum);
}
