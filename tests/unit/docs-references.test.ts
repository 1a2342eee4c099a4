// The repository explains itself: no tracked file cites a document that is not in it (the product spec, the
// design notes), and every relative link of the docs and every `docs/….md#section` a file names leads somewhere.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = normalize(join(__dirname, '..', '..'));
const SELF = relative(ROOT, __filename).split('\\').join('/');

/** Citations of documents kept outside the repository. */
const OUTSIDE =
  /[Ss]pec §\d|(?<![\w-])Part [A-D] §|(?<![\w§/-])§\d|product-spec|\bARCHITECTURE\b|PROTOCOL-NOTES|ACCOUNTS-NOTES|SANDBOX-NOTES|DIRECT-DATA-NOTES|\bSTYLE\.md|shared\/(?:design|spec)\/|\b[Tt]he spec(?:['’]s)?\b|\bspec['’]s\b/;
/** Files that are not ours to word: dependencies, generated pages, the lockfile. */
const NOT_OURS = /^(node_modules\/|docs\/api\/|package-lock\.json$)|(^|\/)package-lock\.json$/;

/** Every file git tracks, and every folder that holds one: what a fresh clone has (an ignored, built file is not). */
const TRACKED = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  .split('\0')
  .filter(Boolean);
const IN_CLONE = new Set(TRACKED.flatMap((f) => f.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))));

function trackedFiles(): string[] {
  return TRACKED.filter((f) => !NOT_OURS.test(f) && f !== SELF);
}

function readText(file: string): string | null {
  const path = join(ROOT, file);
  if (!existsSync(path)) return null; // deleted in the work tree, not yet in the index
  const buffer = readFileSync(path);
  return buffer.includes(0) ? null : buffer.toString('utf8');
}

/** Every line of a text that cites an outside document, as `line: text`. */
function outsideCitations(text: string): string[] {
  return text.split('\n').flatMap((line, i) => (OUTSIDE.test(line) ? [`${i + 1}: ${line.trim()}`] : []));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = (heading[1] ?? '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Markdown with fenced blocks blanked out (their lines kept), so examples inside them are neither headings nor links. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, (block) => block.replace(/[^\n]/g, ' '));
}

/** Markdown with fenced blocks and inline code blanked out. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
}

/** The relative link targets of a Markdown text (outside links and mail are not ours to check). */
function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const match of withoutCode(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    links.push(target);
  }
  return links;
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    anchors = headingAnchors(readFileSync(join(ROOT, file), 'utf8'));
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/** Why a link from `from` to `target` (relative to the repository root when `fromRoot`) leads nowhere, or null. */
function brokenLink(from: string, target: string, fromRoot = false): string | null {
  const [pathPart, anchor] = target.split('#', 2);
  const file = pathPart
    ? normalize(join(fromRoot ? '' : dirname(from), decodeURIComponent(pathPart)))
        .split('\\')
        .join('/')
    : from;
  if (file.startsWith('..')) return `${target} leaves the repository`;
  if (!IN_CLONE.has(file.replace(/\/$/, '')) || !existsSync(join(ROOT, file))) return `${target}: no such file`;
  if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor))
    return `${target}: no section #${anchor} in ${file}`;
  return null;
}

const files = trackedFiles();
const markdown = files.filter((f) => f.endsWith('.md') && (f === 'README.md' || f.startsWith('docs/')));

describe('docs references', () => {
  it('reads citations of outside documents and broken links correctly', () => {
    expect(outsideCitations('fees (PROTOCOL-NOTES Part B §10)\nfine\nthe order flow of spec §4')).toEqual([
      '1: fees (PROTOCOL-NOTES Part B §10)',
      '3: the order flow of spec §4',
    ]);
    expect(outsideCitations('see ../shared/design/ACCOUNTS-NOTES.md')).toHaveLength(1);
    expect(
      outsideCitations('/** Spec §9: approval gas. */\n// Part B §13: one exchange\n// the §8 failure objects'),
    ).toHaveLength(3);
    expect(
      outsideCitations("the catalogue is the spec's fixed list\nas the spec says\nconst spec = specs[0]"),
    ).toHaveLength(2);
    expect(outsideCitations('fees (docs/protocol.md#fees); import x from "../shared/contract"')).toEqual([]);
    expect([...headingAnchors('# A b\n## Order signing (EIP-712)\n```\n# not a heading\n```\n## A b')]).toEqual([
      'a-b',
      'order-signing-eip-712',
      'a-b-1',
    ]);
    expect(relativeLinks('[a](protocol.md#fees) [b](https://x.y) `[c](nowhere.md)` [d](../README.md "t")')).toEqual([
      'protocol.md#fees',
      '../README.md',
    ]);
    expect(brokenLink('docs/cli.md', 'protocol.md#fees')).toBeNull();
    expect(brokenLink('docs/cli.md', 'protocol.md#no-such-section')).toMatch(/no section/);
    expect(brokenLink('docs/cli.md', 'no-such-file.md')).toMatch(/no such file/);
    expect(brokenLink('README.md', 'node_modules/vitest/package.json')).toMatch(/no such file/);
  });

  it('no tracked file cites a document that is not in the repository', () => {
    const found = files.flatMap((file) => {
      const text = readText(file);
      return text ? outsideCitations(text).map((line) => `${file}:${line}`) : [];
    });
    expect(found).toEqual([]);
  });

  it('every relative link in the README and docs leads to a file (and section) that exists', () => {
    const broken = markdown.flatMap((file) =>
      relativeLinks(readFileSync(join(ROOT, file), 'utf8')).flatMap((target) => {
        const why = brokenLink(file, target);
        return why ? [`${file}: ${why}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('every docs/….md#section a file names exists', () => {
    const broken = files.flatMap((file) => {
      const text = readText(file);
      if (!text) return [];
      return [...text.matchAll(/(?<![\w./-])docs\/[\w./-]*?\.md(?:#[\w-]+)?/g)].flatMap(([target]) => {
        const why = brokenLink(file, target, true);
        return why ? [`${file}: ${why}`] : [];
      });
    });
    expect(broken).toEqual([]);
  });

  it("every relative path to a `shared` folder in code is the repository's src/shared, never the notes beside it", () => {
    // `../shared/…` reads like the design notes kept next to the repository; in code it is an import of src/shared.
    const outside = files
      .filter((file) => /\.(ts|tsx|mts|mjs|cjs|js)$/.test(file))
      .flatMap((file) => {
        const text = readText(file);
        if (!text) return [];
        return [...text.matchAll(/['"]((?:\.\.\/)+shared(?:\/[\w.-]+)*)['"]/g)].flatMap(([, target = '']) => {
          const path = normalize(join(dirname(file), target))
            .split('\\')
            .join('/');
          const found = ['', '.ts', '.tsx', '/index.ts'].some((end) => existsSync(join(ROOT, path + end)));
          // Fixtures of the lint tests name files of a made-up tree; they only need to stay inside the repository.
          const fixture = file.startsWith('tests/unit/lint-') && !path.startsWith('..');
          return path.startsWith('src/shared') || fixture || (found && !path.startsWith('..'))
            ? []
            : [`${file}: ${target} -> ${path}`];
        });
      });
    expect(outside).toEqual([]);
  });
});
