/**
 * Line diffs in the `structuredPatch` form the CLI puts in Edit and Write tool results
 * (the hunk format of the `diff` package's `structuredPatch`, 3 lines of context).
 *
 * @module
 */

/** One hunk of a structured patch. */
export type PatchHunk = {
  /** First line of the hunk in the old text (1-based). */
  oldStart: number;
  /** Lines of the old text the hunk covers. */
  oldLines: number;
  /** First line of the hunk in the new text (1-based). */
  newStart: number;
  /** Lines of the new text the hunk covers. */
  newLines: number;
  /** The lines, prefixed with `" "` (context), `"-"` (removed) or `"+"` (added). */
  lines: string[];
};

interface Part {
  kind: "same" | "removed" | "added";
  tokens: string[];
}

/** Above this many cells the middle of a diff is not searched for common lines. */
const MAX_CELLS = 4_000_000;

/**
 * The hunks turning `oldText` into `newText`, as the CLI reports them in
 * `tool_use_result.structuredPatch` (3 lines of context, nearby hunks merged). The
 * `\ No newline at end of file` markers of the `diff` package are left out.
 *
 * @example The patch of a one-word edit
 * ```ts
 * import { structuredPatch } from "@x/claude-mock/builders";
 * const [hunk] = structuredPatch("a\nuse make\nb\n", "a\nuse ninja\nb\n");
 * console.log(hunk.lines); // [" a", "-use make", "+use ninja", " b"]
 * ```
 */
export function structuredPatch(
  oldText: string,
  newText: string,
  options: { context?: number } = {},
): PatchHunk[] {
  if (typeof oldText !== "string" || typeof newText !== "string") {
    throw new TypeError("structuredPatch(): both texts must be strings");
  }
  const context = options.context ?? 3;
  if (!Number.isInteger(context) || context < 0) {
    throw new RangeError(
      `structuredPatch(): options.context must be a non-negative integer, got ${context}`,
    );
  }
  const parts = diffLines(oldText, newText);
  parts.push({ kind: "same", tokens: [] });
  const hunks: PatchHunk[] = [];
  let oldRangeStart = 0, newRangeStart = 0, oldLine = 1, newLine = 1;
  let range: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const lines = linesOf(part.tokens);
    if (part.kind !== "same") {
      if (!oldRangeStart) {
        oldRangeStart = oldLine;
        newRangeStart = newLine;
        const prev = parts[i - 1];
        if (prev) {
          range = context > 0 ? linesOf(prev.tokens).slice(-context).map((l) => " " + l) : [];
          oldRangeStart -= range.length;
          newRangeStart -= range.length;
        }
      }
      const sign = part.kind === "added" ? "+" : "-";
      for (const line of lines) range.push(sign + line);
      if (part.kind === "added") newLine += lines.length;
      else oldLine += lines.length;
    } else {
      if (oldRangeStart) {
        if (lines.length <= context * 2 && i < parts.length - 2) {
          for (const line of lines) range.push(" " + line);
        } else {
          const size = Math.min(lines.length, context);
          for (const line of lines.slice(0, size)) range.push(" " + line);
          hunks.push({
            oldStart: oldRangeStart,
            oldLines: oldLine - oldRangeStart + size,
            newStart: newRangeStart,
            newLines: newLine - newRangeStart + size,
            lines: range,
          });
          oldRangeStart = 0;
          newRangeStart = 0;
          range = [];
        }
      }
      oldLine += lines.length;
      newLine += lines.length;
    }
  }
  return hunks;
}

/** Splits text into line tokens that keep their newline (`"a\n"`, `"b"`). */
function tokenize(text: string): string[] {
  if (text === "") return [];
  const tokens = text.split(/(?<=\n)/);
  return tokens;
}

/** The display lines of some tokens: joined, one trailing newline dropped, split. */
function linesOf(tokens: string[]): string[] {
  if (tokens.length === 0) return [];
  return tokens.join("").replace(/\n$/, "").split("\n");
}

function diffLines(oldText: string, newText: string): Part[] {
  const a = tokenize(oldText);
  const b = tokenize(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length, endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: Part[] = [];
  const push = (kind: Part["kind"], token: string) => {
    const last = parts.at(-1);
    if (last && last.kind === kind) last.tokens.push(token);
    else parts.push({ kind, tokens: [token] });
  };
  for (const token of a.slice(0, start)) push("same", token);
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  for (const [kind, token] of diffMiddle(midA, midB)) push(kind, token);
  for (const token of a.slice(endA)) push("same", token);
  // Inside each changed run the diff package lists removals before additions.
  const out: Part[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].kind === "same") {
      out.push(parts[i]);
      continue;
    }
    const removed: string[] = [], added: string[] = [];
    while (i < parts.length && parts[i].kind !== "same") {
      (parts[i].kind === "removed" ? removed : added).push(...parts[i].tokens);
      i++;
    }
    i--;
    if (removed.length) out.push({ kind: "removed", tokens: removed });
    if (added.length) out.push({ kind: "added", tokens: added });
  }
  return out;
}

/** A longest-common-subsequence diff of two token lists (plain replace when too large). */
function diffMiddle(a: string[], b: string[]): Array<[Part["kind"], string]> {
  const n = a.length, m = b.length;
  if (n === 0 || m === 0 || n * m > MAX_CELLS) {
    return [
      ...a.map((t) => ["removed", t] as [Part["kind"], string]),
      ...b.map((t) => ["added", t] as [Part["kind"], string]),
    ];
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..]
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: Array<[Part["kind"], string]> = [];
  let i = 0, j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push(["same", a[i]]);
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      out.push(["removed", a[i++]]);
    } else {
      out.push(["added", b[j++]]);
    }
  }
  while (i < n) out.push(["removed", a[i++]]);
  while (j < m) out.push(["added", b[j++]]);
  return out;
}
