// The lenient building blocks of Polymarket's wire schemas: numbers that arrive as strings, ids that arrive as
// numbers, nullable text, flags, and Gamma's JSON-encoded string lists, which are parsed here so a list that
// is not one fails with its field's path instead of deep in the UI.
import { z } from 'zod';

const NUMBER_TEXT = /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A number, or a string holding one ("0.53"). */
export const num = z.union([z.number(), z.string().trim().regex(NUMBER_TEXT)]).transform((v) => Number(v));
/** A number that may be missing, null or an empty string upstream: null then, never a made-up 0. */
export const optNum = z
  .union([num, z.literal(''), z.null()])
  .optional()
  .transform((v) => (v === '' || v === null || v === undefined ? null : v));
/** Text that may be missing or null upstream; always a string once parsed. */
export const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
/** Ids come back as numbers or strings (the SDK reads several "string from any"). */
export const id = z.union([z.string().min(1), z.number()]).transform((v) => String(v));
/** A flag that may be missing (undefined then) or written as a string. */
export const flag = z
  .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true'), z.null()])
  .optional()
  .transform((v) => (v === null ? undefined : v));
/** BUY or SELL in any case; empty or missing is null (split, merge and redeem rows have no side). */
export const side = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    const upper = (v ?? '').trim().toUpperCase();
    if (upper === '') return null;
    if (upper === 'BUY' || upper === 'SELL') return upper;
    ctx.addIssue({ code: 'custom', message: `expected BUY or SELL, got '${v}'` });
    return z.NEVER;
  });

/**
 * Gamma's list fields written as a JSON string (`"[\"Yes\",\"No\"]"`): parsed into strings. A real array of
 * strings is taken as it is; missing, null or "" is null; anything else fails naming the field.
 */
export const jsonStringList = z
  .union([z.string(), z.array(z.string()), z.null()])
  .optional()
  .transform((value, ctx) => {
    if (value === null || value === undefined) return null;
    if (Array.isArray(value)) return value;
    if (value.trim() === '') return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'expected a JSON-encoded array of strings' });
      return z.NEVER;
    }
    if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) {
      ctx.addIssue({ code: 'custom', message: 'expected a JSON-encoded array of strings' });
      return z.NEVER;
    }
    return parsed as string[];
  });
/** A trade's side: BUY or SELL, required. */
export const tradeSide = side.pipe(z.enum(['BUY', 'SELL'], { message: 'expected BUY or SELL' }));
