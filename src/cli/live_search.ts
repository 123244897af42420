/**
 * Live Glob and Grep, with the real CLI 2.1.328's results: paths relative to the working directory, hidden files included, Glob's
 * files oldest first and Grep's newest first, Grep's `files_with_matches`, `content` and
 * `count` modes with their texts, context lines, `head_limit`, `glob` and `type` filters.
 * A session has these tools only when `--tools` names them or Bash is denied (the default set
 * leaves them to Bash's `find` and `grep`). Internal.
 *
 * @module
 */

import { fileTime, listDir, readText } from "../host/_fs.ts";

/** A live tool's result, as a scripted one: the text the model reads and the structured form. */
export interface SearchResult {
  /** The tool result's content. */
  content: string;
  /** Whether it is an error. */
  isError: boolean;
  /** The frame's `tool_use_result`. */
  toolUseResult: unknown;
}

/** At most this many files in a Glob result (the rest are counted, not listed). */
const GLOB_LIMIT = 100;
/** Folders no search goes into. */
const SKIPPED = new Set([".git", "node_modules"]);
/** Grep's `type` filter: ripgrep's names for the common file types. */
const TYPES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  ts: [".ts", ".tsx", ".cts", ".mts"],
  js: [".js", ".jsx", ".cjs", ".mjs"],
  py: [".py", ".pyi"],
  rust: [".rs"],
  go: [".go"],
  java: [".java"],
  c: [".c", ".h"],
  cpp: [".cpp", ".cc", ".cxx", ".hpp", ".hh", ".h"],
  json: [".json"],
  md: [".md", ".markdown"],
  markdown: [".md", ".markdown"],
  txt: [".txt"],
  yaml: [".yaml", ".yml"],
  toml: [".toml"],
  html: [".html", ".htm"],
  css: [".css"],
  sh: [".sh", ".bash", ".zsh"],
});

/** Glob: the files under `path` (default the cwd) whose path matches `pattern`. */
export async function liveGlob(input: Record<string, unknown>, cwd: string): Promise<SearchResult> {
  const started = performance.now();
  const base = resolve(cwd, input.path);
  const match = globMatcher(String(input.pattern ?? "**/*"));
  const found = (await walk(base)).filter((rel) => match(rel)).map((rel) => `${base}/${rel}`);
  const sorted = await byTime(found, "oldest");
  const shown = sorted.slice(0, GLOB_LIMIT).map((file) => display(cwd, file));
  const truncated = sorted.length > GLOB_LIMIT;
  const content = shown.length === 0 ? "No files found" : shown.join("\n") +
    (truncated ? "\n(Results are truncated. Consider using a more specific path or pattern.)" : "");
  return {
    content,
    isError: false,
    toolUseResult: {
      filenames: shown,
      durationMs: Math.round(performance.now() - started),
      numFiles: shown.length,
      truncated,
      totalMatches: sorted.length,
      countIsComplete: true,
    },
  };
}

/** Grep: the files, lines or counts of `pattern` under `path` (default the cwd). */
export async function liveGrep(input: Record<string, unknown>, cwd: string): Promise<SearchResult> {
  const base = resolve(cwd, input.path);
  const mode = String(input.output_mode ?? "files_with_matches");
  let regex: RegExp;
  try {
    regex = new RegExp(
      String(input.pattern ?? ""),
      `${input["-i"] === true ? "i" : ""}${input.multiline === true ? "s" : ""}`,
    );
  } catch (error) {
    const message = `Invalid regex pattern: ${(error as Error).message}`;
    return {
      content: `<tool_use_error>${message}</tool_use_error>`,
      isError: true,
      toolUseResult: `Error: ${message}`,
    };
  }
  const single = await isFile(base);
  const files = single ? [base] : await filesUnder(base, input);
  const limit = typeof input.head_limit === "number" && input.head_limit > 0
    ? Math.floor(input.head_limit)
    : undefined;
  const hits: { file: string; lines: string[]; matched: number[] }[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readText(file);
    } catch {
      continue;
    }
    if (text.includes("\0")) continue; // a binary file, as ripgrep skips it
    const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
    const matched = input.multiline === true
      ? (regex.test(text) ? [0] : [])
      : lines.flatMap((line, i) => (regex.test(line) ? [i] : []));
    if (matched.length > 0) hits.push({ file, lines, matched });
  }
  if (mode === "content") return grepContent(hits, { cwd, single, input, limit });
  if (mode === "count") return grepCount(hits, { cwd, limit });
  const newest = await byTime(hits.map((h) => h.file), "newest");
  const shown = (limit !== undefined ? newest.slice(0, limit) : newest).map((f) => display(cwd, f));
  const content = shown.length === 0
    ? "No files found"
    : `Found ${shown.length} file${shown.length === 1 ? "" : "s"}\n${shown.join("\n")}` +
      paginated(limit, newest.length);
  return {
    content,
    isError: false,
    toolUseResult: {
      mode: "files_with_matches",
      filenames: shown,
      numFiles: shown.length,
      totalFiles: newest.length,
      ...(limit !== undefined && newest.length > limit ? { appliedLimit: limit } : {}),
    },
  };
}

function grepContent(
  hits: { file: string; lines: string[]; matched: number[] }[],
  options: { cwd: string; single: boolean; input: Record<string, unknown>; limit?: number },
): SearchResult {
  const { input } = options;
  const number = input["-n"] !== false;
  const context = Number(input["-C"] ?? 0) || 0;
  const after = Number(input["-A"] ?? context) || 0;
  const before = Number(input["-B"] ?? context) || 0;
  const out: string[] = [];
  const sorted = [...hits].sort((a, b) =>
    compare(display(options.cwd, a.file), display(options.cwd, b.file))
  );
  for (const { file, lines, matched } of sorted) {
    const name = options.single ? "" : display(options.cwd, file);
    const wanted = new Set(matched);
    let last = -2;
    for (const i of matched) {
      const from = Math.max(0, i - before, last + 1);
      const to = Math.min(lines.length - 1, i + after);
      if (out.length > 0 && from > last + 1 && (before > 0 || after > 0)) out.push("--");
      for (let k = from; k <= to; k++) {
        const sep = wanted.has(k) ? ":" : "-";
        out.push(`${name ? `${name}${sep}` : ""}${number ? `${k + 1}${sep}` : ""}${lines[k]}`);
      }
      last = Math.max(last, to);
    }
  }
  const shown = options.limit !== undefined ? out.slice(0, options.limit) : out;
  const text = shown.join("\n");
  return {
    content: shown.length === 0 ? "No matches found" : text + paginated(options.limit, out.length),
    isError: false,
    toolUseResult: {
      mode: "content",
      numFiles: 0,
      filenames: [],
      content: text,
      numLines: shown.length,
      totalLines: out.length,
      ...(options.limit !== undefined && out.length > options.limit
        ? { appliedLimit: options.limit }
        : {}),
    },
  };
}

function grepCount(
  hits: { file: string; matched: number[] }[],
  options: { cwd: string; limit?: number },
): SearchResult {
  const rows = hits.map((h) => ({ name: display(options.cwd, h.file), n: h.matched.length }))
    .sort((a, b) => compare(a.name, b.name));
  const shown = options.limit !== undefined ? rows.slice(0, options.limit) : rows;
  const text = shown.map((r) => `${r.name}:${r.n}`).join("\n");
  const total = shown.reduce((sum, r) => sum + r.n, 0);
  const summary = `Found ${total} total occurrence${
    total === 1 ? "" : "s"
  } across ${shown.length} file${shown.length === 1 ? "" : "s"}.`;
  return {
    content: `${shown.length === 0 ? "No matches found" : text}\n\n${summary}` +
      paginated(options.limit, rows.length),
    isError: false,
    toolUseResult: {
      mode: "count",
      numFiles: shown.length,
      filenames: [],
      content: text,
      numMatches: total,
      ...(options.limit !== undefined && rows.length > options.limit
        ? { appliedLimit: options.limit }
        : {}),
    },
  };
}

/** The pagination note after results `limit` cut (none when nothing was cut). */
function paginated(limit: number | undefined, total: number): string {
  return limit !== undefined && total > limit
    ? `\n\n[Showing results with pagination = limit: ${limit}]`
    : "";
}

/** The files a Grep looks at: under `base`, through its `glob` and `type` filters. */
async function filesUnder(base: string, input: Record<string, unknown>): Promise<string[]> {
  const glob = typeof input.glob === "string" && input.glob !== ""
    ? globMatcher(input.glob)
    : undefined;
  const type = typeof input.type === "string" ? TYPES[input.type] : undefined;
  return (await walk(base))
    .filter((rel) => !glob || glob(rel))
    .filter((rel) => !type || type.some((ext) => rel.endsWith(ext)))
    .map((rel) => `${base}/${rel}`);
}

/** Every file under `root`, hidden ones too (not `.git`, `node_modules`), relative to it. */
async function walk(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (dir: string, rel: string) => {
    let entries: { name: string; isDirectory: boolean }[];
    try {
      entries = await listDir(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (SKIPPED.has(entry.name)) continue;
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory) await visit(`${dir}/${entry.name}`, path);
      else found.push(path);
    }
  };
  await visit(root, "");
  return found;
}

/** Files by modification time (to the millisecond), then by path. */
async function byTime(files: string[], order: "oldest" | "newest"): Promise<string[]> {
  const timed = await Promise.all(
    files.map(async (file) => ({ file, at: (await fileTime(file)) ?? 0 })),
  );
  timed.sort((
    a,
    b,
  ) => (a.at !== b.at
    ? (order === "oldest" ? a.at - b.at : b.at - a.at)
    : compare(a.file, b.file))
  );
  return timed.map((t) => t.file);
}

async function isFile(path: string): Promise<boolean> {
  try {
    await readText(path);
    return true;
  } catch {
    return false;
  }
}

/** `path` absolute (relative ones under `cwd`), without a trailing slash. */
function resolve(cwd: string, path: unknown): string {
  const base = cwd.replace(/\/+$/, "");
  const p = typeof path === "string" && path !== "" ? path : base;
  return (p.startsWith("/") ? p : `${base}/${p}`).replace(/\/+$/, "") || "/";
}

/** A path as the CLI shows it: relative to `cwd` when under it. */
function display(cwd: string, file: string): string {
  const base = cwd.replace(/\/+$/, "");
  return file.startsWith(`${base}/`) ? file.slice(base.length + 1) : file;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A glob as ripgrep takes it: without a `/` it matches a file's name at any depth, with one
 * the path under the search root; `**` spans folders, `*` and `?` stay within a name,
 * `{a,b}` is either.
 */
function globMatcher(pattern: string): (rel: string) => boolean {
  const regex = globRegExp(pattern.startsWith("./") ? pattern.slice(2) : pattern);
  if (!pattern.includes("/")) return (rel) => regex.test(rel.slice(rel.lastIndexOf("/") + 1));
  return (rel) => regex.test(rel);
}

function globRegExp(pattern: string): RegExp {
  let source = "";
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else if (c === "{") {
      braces++;
      source += "(?:";
    } else if (c === "}" && braces > 0) {
      braces--;
      source += ")";
    } else if (c === "," && braces > 0) source += "|";
    else source += ".+^$()|[]{}\\".includes(c) ? `\\${c}` : c;
  }
  return new RegExp(`^${source}$`);
}
