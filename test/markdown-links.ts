/**
 * The links of the repository's Markdown files, checked the way GitHub renders them: every
 * relative link must name a file (or folder) of the repository, inside it, and a `#fragment`
 * into a Markdown file must name one of its headings.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString as textOf } from 'mdast-util-to-string';

/** A link that does not resolve, with where it is. */
export interface LinkProblem {
  /** `path:line`, relative to the repository. */
  readonly at: string;
  readonly url: string;
  readonly reason: string;
}

/**
 * The repository's files, relative, with `/`: what git tracks plus new files it does not ignore;
 * without git (an exported tree), every file outside `node_modules`, `dist` and dot-folders.
 */
export function repositoryFiles(root: string): string[] {
  try {
    const out = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
      {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    return out.split('\0').filter((f) => f !== '');
  } catch {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
      .filter(
        (f) =>
          !f
            .split('/')
            .some((part) => part === 'node_modules' || part === 'dist' || part.startsWith('.')),
      );
  }
}

interface Parsed {
  readonly links: { url: string; line: number }[];
  readonly anchors: Set<string>;
}

function parse(text: string): Parsed {
  const links: Parsed['links'] = [];
  const anchors = new Set<string>();
  const slugger = new GithubSlugger();
  const walk = (node: Nodes) => {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') {
      links.push({ url: node.url, line: node.position?.start.line ?? 0 });
    }
    if (node.type === 'heading') anchors.add(slugger.slug(textOf(node)));
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(fromMarkdown(text));
  return { links, anchors };
}

/** Checks every relative link of every Markdown file among `files` (paths relative to `root`). */
export function checkMarkdownLinks(root: string, files: readonly string[]): LinkProblem[] {
  const known = new Set(files);
  const folders = new Set(
    files.flatMap((f) =>
      f
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  const markdown = files.filter((f) => f.endsWith('.md'));
  const parsed = new Map(markdown.map((f) => [f, parse(readFileSync(join(root, f), 'utf8'))]));
  const problems: LinkProblem[] = [];
  for (const [file, { links }] of parsed) {
    for (const { url, line } of links) {
      const report = (reason: string) => problems.push({ at: `${file}:${line}`, url, reason });
      if (/^[a-z][a-z0-9+.-]*:/i.test(url)) continue; // https:, mailto:: not a repository file
      if (url.startsWith('/')) {
        report('absolute path: write it relative to this file');
        continue;
      }
      const hash = url.indexOf('#');
      const path = decodeURIComponent(hash === -1 ? url : url.slice(0, hash));
      const fragment = hash === -1 ? undefined : decodeURIComponent(url.slice(hash + 1));
      const target =
        path === ''
          ? file
          : normalize(join(dirname(file), path))
              .split(sep)
              .join('/')
              .replace(/\/$/, '');
      if (target === '..' || target.startsWith('../')) {
        report('points outside the repository');
        continue;
      }
      if (!known.has(target) && !folders.has(target) && target !== '.') {
        report(`no such file in the repository: ${target}`);
        continue;
      }
      const anchors = parsed.get(target)?.anchors;
      if (fragment !== undefined && anchors && !anchors.has(fragment)) {
        report(`${target} has no heading with the anchor #${fragment}`);
      }
    }
  }
  return problems;
}
