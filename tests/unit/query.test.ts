import { describe, expect, it } from 'vitest';
import { buildQuery, encodeQueryValue, joinUrl } from '../../packages/toolkit/src/http/query';

describe('query strings', () => {
  it('encodes like the reference clients: commas, colons and brackets readable, spaces as +', () => {
    expect(encodeQueryValue('polymarket,limitless')).toBe('polymarket,limitless');
    expect(encodeQueryValue('top AI model')).toBe('top+AI+model');
    expect(encodeQueryValue('a&b=c/d?e#f')).toBe('a%26b%3Dc%2Fd%3Fe%23f');
    expect(encodeQueryValue('x:y$[z]')).toBe('x:y$[z]');
    expect(encodeQueryValue('é+')).toBe('%C3%A9%2B');
  });

  it('keeps key order, drops undefined and null, writes booleans and numbers', () => {
    expect(buildQuery({ query: 'q', topK: undefined, protocols: null, isIncludeComment: false, threshold: 0.5 })).toBe(
      '?query=q&isIncludeComment=false&threshold=0.5',
    );
    expect(buildQuery({})).toBe('');
    expect(buildQuery(undefined)).toBe('');
  });

  it('joins base and path with one slash', () => {
    expect(joinUrl('http://h:1/', '/v1/agg')).toBe('http://h:1/v1/agg');
    expect(joinUrl('http://h:1/api', 'v1/agg')).toBe('http://h:1/api/v1/agg');
  });
});
