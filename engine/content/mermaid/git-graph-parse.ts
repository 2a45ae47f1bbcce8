import { unquote, type MermaidSource } from './source.js';
import { MermaidSyntaxError } from './syntax-error.js';

export type CommitType = 'NORMAL' | 'REVERSE' | 'HIGHLIGHT';

export interface Commit {
  /** The id written in the source, or null: Mermaid's generated ids are random, so none is shown. */
  id: string | null;
  branch: number;
  parents: Commit[];
  type: CommitType;
  tag: string | null;
  kind: 'commit' | 'merge' | 'cherry-pick';
  /** For a cherry-pick, the id of the commit picked. */
  picked: string | null;
  /** Position along the time axis: commits are drawn in the order written. */
  seq: number;
}

export interface Branch {
  name: string;
  order: number | null;
  created: number;
  head: Commit | null;
}

export interface GitGraph {
  direction: 'LR' | 'TB' | 'BT';
  branches: Branch[];
  commits: Commit[];
}

const MAIN = 'main';

/** Options after a command: `id: "x" tag: "v1" type: HIGHLIGHT order: 2 parent: "y"`. */
function readOptions(text: string, line: string): Map<string, string> {
  const options = new Map<string, string>();
  const pattern = /(\w+)\s*:\s*("[^"]*"|\S+)\s*/y;
  let rest = text.trim();
  while (rest) {
    pattern.lastIndex = 0;
    const match = pattern.exec(rest);
    if (!match) throw new MermaidSyntaxError('not a gitGraph option', line);
    options.set(match[1]!, unquote(match[2]!));
    rest = rest.slice(match[0].length);
  }
  return options;
}

export function parseGitGraph(source: MermaidSource): GitGraph {
  const direction = (/^(LR|TB|BT)\b/.exec(source.headerRest)?.[1] ?? 'LR') as GitGraph['direction'];
  const branches: Branch[] = [{ name: MAIN, order: null, created: 0, head: null }];
  const byName = new Map([[MAIN, branches[0]!]]);
  const commits: Commit[] = [];
  const ids = new Map<string, Commit>();
  let current = branches[0]!;

  const add = (commit: Omit<Commit, 'seq' | 'branch'>, line: string): void => {
    if (commit.id !== null) {
      if (ids.has(commit.id)) throw new MermaidSyntaxError(`the commit id "${commit.id}" is used twice`, line);
    }
    const placed: Commit = { ...commit, branch: branches.indexOf(current), seq: commits.length };
    if (commit.id !== null) ids.set(commit.id, placed);
    commits.push(placed);
    current.head = placed;
  };
  const typeOf = (options: Map<string, string>, line: string): CommitType => {
    const type = (options.get('type') ?? 'NORMAL').toUpperCase();
    if (type !== 'NORMAL' && type !== 'REVERSE' && type !== 'HIGHLIGHT') throw new MermaidSyntaxError('a commit type is NORMAL, REVERSE or HIGHLIGHT', line);
    return type;
  };

  for (const line of source.lines) {
    const match = /^(commit|branch|checkout|switch|merge|cherry-pick)\b\s*(.*)$/.exec(line);
    if (!match) throw new MermaidSyntaxError('not a gitGraph command', line);
    const [, command, rest] = match as unknown as [string, string, string];
    if (command === 'commit') {
      const options = readOptions(rest, line);
      add(
        {
          id: options.get('id') ?? null,
          parents: current.head ? [current.head] : [],
          type: typeOf(options, line),
          tag: options.get('tag') ?? null,
          kind: 'commit',
          picked: null,
        },
        line,
      );
    } else if (command === 'branch') {
      const [name, ...more] = rest.split(/\s+/);
      if (!name) throw new MermaidSyntaxError('a branch needs a name', line);
      if (byName.has(unquote(name))) throw new MermaidSyntaxError(`the branch "${unquote(name)}" already exists`, line);
      const order = readOptions(more.join(' '), line).get('order');
      const branch: Branch = { name: unquote(name), order: order === undefined ? null : Number(order), created: branches.length, head: current.head };
      branches.push(branch);
      byName.set(branch.name, branch);
      current = branch;
    } else if (command === 'checkout' || command === 'switch') {
      current = byName.get(unquote(rest)) ?? unknownBranch(rest, line);
    } else if (command === 'merge') {
      const [name, ...more] = rest.split(/\s+/);
      const other = byName.get(unquote(name ?? '')) ?? unknownBranch(name ?? '', line);
      if (other === current) throw new MermaidSyntaxError('a branch cannot be merged into itself', line);
      if (!other.head || other.head === current.head) throw new MermaidSyntaxError(`the branch "${other.name}" has nothing to merge`, line);
      if (!current.head) throw new MermaidSyntaxError(`the branch "${current.name}" has no commit to merge into`, line);
      const options = readOptions(more.join(' '), line);
      add(
        {
          id: options.get('id') ?? null,
          parents: [current.head, other.head],
          type: typeOf(options, line),
          tag: options.get('tag') ?? null,
          kind: 'merge',
          picked: null,
        },
        line,
      );
    } else {
      const options = readOptions(rest, line);
      const picked = options.get('id');
      const commit = picked === undefined ? undefined : ids.get(picked);
      if (!commit) throw new MermaidSyntaxError('cherry-pick needs the id of an existing commit', line);
      if (commit.branch === branches.indexOf(current)) throw new MermaidSyntaxError('a commit cannot be cherry-picked onto its own branch', line);
      add(
        { id: null, parents: current.head ? [current.head] : [], type: 'NORMAL', tag: options.get('tag') ?? null, kind: 'cherry-pick', picked: picked! },
        line,
      );
    }
  }
  if (commits.length === 0) throw new MermaidSyntaxError('a gitGraph needs at least one commit');
  return { direction, branches, commits };
}

function unknownBranch(name: string, line: string): never {
  throw new MermaidSyntaxError(`there is no branch "${unquote(name)}"`, line);
}
