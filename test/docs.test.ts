import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildReadme } from '../bench/src/_build-readme.ts';
import { checkMarkdownLinks, repositoryFiles } from './markdown-links.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('the Markdown of the repository', () => {
  const files = repositoryFiles(root);

  it('has no link to a missing file, a missing heading or outside the repository', () => {
    expect(checkMarkdownLinks(root, files)).toEqual([]);
  });

  it('names no document that is not in the repository, in docs or in code comments', () => {
    const mentions = files
      .filter((f) => /\.(md|ts|mts|mjs)$/.test(f) && f !== 'test/docs.test.ts')
      .flatMap((f) =>
        readFileSync(join(root, f), 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            /\b(SPEC|DESIGN|STYLE)\.md\b/.test(line) ? [`${f}:${i + 1}`] : [],
          ),
      );
    expect(mentions).toEqual([]);
  });

  it('has bench/README.md as bench/src/_build-readme.ts builds it from bench/results/, within 250 lines', () => {
    const built = buildReadme();
    expect(readFileSync(join(root, 'bench', 'README.md'), 'utf8')).toBe(built);
    expect(built.split('\n').length).toBeLessThanOrEqual(250);
  });
});

describe('checkMarkdownLinks', () => {
  it('reports missing files, missing headings and links that leave the repository', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docflow-links-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'guide.md'), '# Guide\n\n## Two words\n');
    writeFileSync(
      join(dir, 'README.md'),
      [
        '# Readme',
        '[ok](docs/guide.md) [heading](docs/guide.md#two-words) [folder](docs/) [self](#readme)',
        '[web](https://example.com) `[code](missing.md)`',
        '[gone](docs/missing.md)',
        '[outside](../elsewhere/NOTES.md)',
        '[no heading](docs/guide.md#three-words)',
        '| table | [cell](nowhere.md) |',
        '[root](/docs/guide.md)',
        '',
        '[ref]: docs/old.md',
      ].join('\n'),
    );
    const problems = checkMarkdownLinks(dir, ['README.md', 'docs/guide.md']);
    expect(problems.map((p) => [p.at, p.url])).toEqual([
      ['README.md:4', 'docs/missing.md'],
      ['README.md:5', '../elsewhere/NOTES.md'],
      ['README.md:6', 'docs/guide.md#three-words'],
      ['README.md:7', 'nowhere.md'],
      ['README.md:8', '/docs/guide.md'],
      ['README.md:10', 'docs/old.md'],
    ]);
    expect(problems[1]?.reason).toBe('points outside the repository');
  });
});
