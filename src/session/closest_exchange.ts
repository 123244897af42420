/**
 * How close a prompt comes to a trigger, for messages that name the closest candidate: the
 * exchange a prompt that matched nothing probably meant, the prompt an unused exchange
 * probably waited for. Built-in triggers (contains, equals, glob, regex) are compared by
 * edit distance on their literal text (ignoring case and runs of spaces); predicates and
 * custom matchers are not guessed at. Bounded work: long texts are cut, and the whole search
 * stops after a fixed number of comparisons, so an error path never hangs.
 *
 * @module
 */

import type { Matcher } from "../scenario/matcher.ts";
import type { UserFrame } from "../wire/frame.ts";

/** At most this many characters of a prompt are compared. */
const TEXT_LIMIT = 1000;
/** At most this many characters of a trigger's literal are compared. */
const LITERAL_LIMIT = 200;
/** The total work (edit-distance cells) of one search. */
const BUDGET = 4_000_000;
/** Beyond this distance (0: equal, 1: nothing in common) a candidate is not worth naming. */
const CLOSE_ENOUGH = 0.4;

/** One candidate and how far it is (0 to 1). */
export interface Closest {
  /** The candidate's index in the list searched. */
  index: number;
  /** 0 when the trigger matches, up to 1. */
  distance: number;
}

/** A search's remaining work. */
export interface Budget {
  /** Edit-distance cells still allowed. */
  cells: number;
}

/** A fresh budget for one search. */
export function newBudget(): Budget {
  return { cells: BUDGET };
}

/**
 * How far `text` is from what `matcher` wants: 0 when it matches, up to 1; `undefined` for
 * triggers that cannot be compared (predicates, custom matchers) or when the budget is spent.
 */
export function triggerDistance(
  matcher: Matcher,
  text: string,
  options: { input?: UserFrame; budget: Budget },
): number | undefined {
  const budget = options.budget;
  const literal = literalOf(matcher);
  if (literal === undefined || budget.cells <= 0) return undefined;
  // matching costs a pass over the whole prompt
  budget.cells -= Math.ceil(text.length / 8);
  try {
    if (matcher.test(text, options.input ?? ({ type: "user" } as UserFrame))) return 0;
  } catch {
    return undefined;
  }
  const a = normalize(literal.text).slice(0, LITERAL_LIMIT);
  const b = normalize(text.slice(0, TEXT_LIMIT * 4)).slice(0, TEXT_LIMIT);
  if (a.length === 0) return 0;
  const cells = a.length * (b.length + 1);
  if (cells > budget.cells) {
    budget.cells = 0;
    return undefined;
  }
  budget.cells -= cells;
  if (literal.whole) {
    return levenshtein(a, b, false) / Math.max(a.length, b.length, 1);
  }
  return Math.min(1, levenshtein(a, b, true) / a.length);
}

/**
 * The closest of `matchers` to `text` (lowest distance, then lowest index), among those
 * `order` lists (indexes, searched in that order while the budget lasts); `undefined` when
 * none is close enough.
 */
export function closestTrigger(
  matchers: (index: number) => Matcher,
  text: string,
  options: { order: Iterable<number>; input?: UserFrame },
): Closest | undefined {
  const budget = newBudget();
  let best: Closest | undefined;
  for (const index of options.order) {
    if (budget.cells <= 0) break;
    const distance = triggerDistance(matchers(index), text, { input: options.input, budget });
    if (distance === undefined || distance > CLOSE_ENOUGH) continue;
    if (!best || distance < best.distance || (distance === best.distance && index < best.index)) {
      best = { index, distance };
    }
  }
  return best;
}

/** The prompt of `prompts` closest to what `matcher` wants, if one is close enough. */
export function closestPrompt(matcher: Matcher, prompts: readonly string[]): Closest | undefined {
  const budget = newBudget();
  let best: Closest | undefined;
  for (let index = 0; index < prompts.length && budget.cells > 0; index++) {
    const distance = triggerDistance(matcher, prompts[index], { budget });
    if (distance === undefined || distance > CLOSE_ENOUGH) continue;
    if (!best || distance < best.distance) best = { index, distance };
  }
  return best;
}

/** The literal text a built-in trigger looks for, and whether it must be the whole prompt. */
function literalOf(matcher: Matcher): { text: string; whole: boolean } | undefined {
  const quoted = (prefix: string): string | undefined => {
    if (!matcher.description.startsWith(prefix)) return undefined;
    try {
      const value = JSON.parse(matcher.description.slice(prefix.length));
      return typeof value === "string" ? value : undefined;
    } catch {
      return undefined;
    }
  };
  switch (matcher.kind) {
    case "contains": {
      const text = quoted("contains ");
      return text === undefined ? undefined : { text, whole: false };
    }
    case "exact": {
      const text = quoted("equals ");
      return text === undefined ? undefined : { text, whole: true };
    }
    case "glob": {
      const pattern = quoted("matches glob ");
      if (pattern === undefined) return undefined;
      return { text: pattern.replace(/\[[^\]]*\]|[*?]/g, " "), whole: false };
    }
    case "regex": {
      const d = matcher.description;
      const start = d.indexOf("/");
      const end = d.lastIndexOf("/");
      if (!d.startsWith("matches /") || end <= start) return undefined;
      const source = d.slice(start + 1, end)
        .replace(/\\[bBdDsSwW]|\[[^\]]*\]|\(\?[:=!<]*|[\\^$()|{}*+?.]/g, " ");
      return { text: source, whole: false };
    }
    case "any":
      return { text: "", whole: false };
    default:
      return undefined;
  }
}

function normalize(s: string): string {
  return s.toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * Edit distance from `a` to `b`; with `substring`, to the closest substring of `b`
 * (Sellers' algorithm: starting anywhere in `b` is free).
 */
function levenshtein(a: string, b: string, substring: boolean): number {
  let row = new Uint32Array(b.length + 1);
  let next = new Uint32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) row[j] = substring ? 0 : j;
  for (let i = 1; i <= a.length; i++) {
    next[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + cost);
    }
    [row, next] = [next, row];
  }
  if (!substring) return row[b.length];
  let min = row[0];
  for (let j = 1; j <= b.length; j++) if (row[j] < min) min = row[j];
  return min;
}
