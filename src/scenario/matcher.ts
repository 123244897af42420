/**
 * Matchers: what an exchange's trigger, or a wait, looks for in what the SDK wrote.
 *
 * @module
 */

import type { Frame } from "../wire/frame.ts";
import { kindOf } from "../wire/_kind_of.ts";
import { promptText } from "./prompt_text.ts";

/**
 * Tests a written frame. `text` is the frame's text as a person reads it: for a `user`
 * frame the joined text of its message, for anything else its JSON line.
 */
export interface Matcher {
  /** `contains`, `exact`, `regex`, `glob`, `any` or `predicate`. */
  readonly kind: string;
  /** A human readable description, used in error messages. */
  readonly description: string;
  /** Whether the frame matches. */
  test(text: string, frame: Frame): boolean;
  /** For RegExp matchers: the match with its capture groups. */
  exec?(text: string): RegExpExecArray | null;
}

/** What a trigger can be given as: a string (contains), a RegExp, a predicate or a matcher. */
export type Trigger = string | RegExp | Matcher | ((text: string, frame: Frame) => boolean);

/** What a `contains` or `exact` matcher looks for, by its `test` function. */
const TEXT_KEYS = new WeakMap<
  (text: string, frame: Frame) => boolean,
  { kind: "contains" | "exact"; text: string }
>();

/**
 * Matches text that contains `needle`.
 *
 * @example Contains
 * ```ts
 * import { contains } from "@x/claude-mock";
 * console.log(contains("weather").test("what's the weather?", { type: "user" })); // true
 * ```
 */
export function contains(needle: string): Matcher {
  const test = (t: string) => t.includes(needle);
  TEXT_KEYS.set(test, { kind: "contains", text: needle });
  return { kind: "contains", description: `contains ${JSON.stringify(needle)}`, test };
}

/**
 * What `matcher` looks for when it is a `contains` or `exact` matcher made here, unchanged
 * (`exact`'s text trimmed): an exchange picker can then index it instead of trying it. A
 * matcher made elsewhere, or whose `test` was replaced, gives `undefined`. Internal.
 */
export function textKeyOf(
  matcher: Matcher,
): { kind: "contains" | "exact"; text: string } | undefined {
  return TEXT_KEYS.get(matcher.test);
}

/**
 * Matches text equal to `expected` (after trimming both).
 *
 * @example Exact
 * ```ts
 * import { exact } from "@x/claude-mock";
 * console.log(exact("hello").test(" hello\n", { type: "user" })); // true
 * ```
 */
export function exact(expected: string): Matcher {
  const want = expected.trim();
  const test = (t: string) => t.trim() === want;
  TEXT_KEYS.set(test, { kind: "exact", text: want });
  return { kind: "exact", description: `equals ${JSON.stringify(expected)}`, test };
}

/**
 * Matches text that a regular expression matches (`lastIndex` is reset for `g`/`y`). The
 * RegExp runs as given: a pattern that backtracks badly on long prompts is slow here too
 * (prefer {@linkcode glob}, which always runs in linear time).
 *
 * @example Regex
 * ```ts
 * import { regex } from "@x/claude-mock";
 * console.log(regex(/read (\S+)/i).test("Read notes.txt", { type: "user" })); // true
 * ```
 */
export function regex(pattern: RegExp): Matcher {
  return {
    kind: "regex",
    description: `matches ${pattern}`,
    test: (t) => {
      pattern.lastIndex = 0;
      return pattern.test(t);
    },
    exec: (t) => {
      pattern.lastIndex = 0;
      return pattern.exec(t);
    },
  };
}

/**
 * Matches the whole text (trimmed) against a glob: `*` any run of characters, `?` one
 * character, `[abc]`, `[a-z]` and `[!abc]` a class; `\` escapes. Matching takes time
 * linear in the text for a given pattern (no backtracking blow-up on long prompts).
 *
 * @example Glob
 * ```ts
 * import { glob } from "@x/claude-mock";
 * console.log(glob("read *.txt").test("read notes.txt", { type: "user" })); // true
 * ```
 */
export function glob(pattern: string): Matcher {
  if (typeof pattern !== "string") {
    throw new TypeError(`Invalid glob: expected a string pattern, got ${kindOf(pattern)}`);
  }
  const tokens = compileGlob(pattern);
  return {
    kind: "glob",
    description: `matches glob ${JSON.stringify(pattern)}`,
    test: (t) => globMatch(tokens, t.trim()),
  };
}

/**
 * Matches anything.
 *
 * @example Any
 * ```ts
 * import { any } from "@x/claude-mock";
 * console.log(any().test("", { type: "user" })); // true
 * ```
 */
export function any(): Matcher {
  return { kind: "any", description: "anything", test: () => true };
}

/**
 * Matches what a function accepts.
 *
 * @example Predicate
 * ```ts
 * import { predicate } from "@x/claude-mock";
 * const long = predicate((text) => text.length > 10, "a long prompt");
 * console.log(long.description); // a long prompt
 * ```
 */
export function predicate(
  fn: (text: string, frame: Frame) => boolean,
  description = "a predicate",
): Matcher {
  return { kind: "predicate", description, test: fn };
}

/**
 * Turns a {@linkcode Trigger} into a {@linkcode Matcher}: a string means "contains".
 *
 * @example Shorthands
 * ```ts
 * import { toMatcher } from "./matcher.ts";
 * console.log(toMatcher("hi").kind, toMatcher(/hi/).kind); // contains regex
 * ```
 */
export function toMatcher(trigger: Trigger): Matcher {
  if (typeof trigger === "string") return contains(trigger);
  if (trigger instanceof RegExp) return regex(trigger);
  if (typeof trigger === "function") return predicate(trigger);
  if (trigger && typeof trigger.test === "function" && typeof trigger.kind === "string") {
    return trigger;
  }
  throw new TypeError(
    `Invalid trigger: expected a string, RegExp, function or Matcher, got ${kindOf(trigger)}`,
  );
}

/**
 * The text of a frame as matchers see it: for a `user` frame its prompt text (its string
 * content, or its text blocks joined with newlines; "" when it carries no text, never its
 * raw JSON), for anything else the frame as JSON.
 *
 * @example Text of a prompt
 * ```ts
 * import { frameText } from "./matcher.ts";
 * const frame = { type: "user", message: { role: "user", content: [{ type: "text", text: "hi" }] } };
 * console.log(frameText(frame)); // hi
 * ```
 */
export function frameText(frame: Frame): string {
  return frame.type === "user" ? promptText(frame) : JSON.stringify(frame);
}

type GlobToken =
  | { kind: "star" }
  | { kind: "one" }
  | { kind: "char"; char: string }
  | { kind: "class"; negate: boolean; ranges: Array<[string, string]> };

function compileGlob(pattern: string): GlobToken[] {
  const tokens: GlobToken[] = [];
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === "\\" && i + 1 < chars.length) tokens.push({ kind: "char", char: chars[++i] });
    else if (c === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
    } else if (c === "?") tokens.push({ kind: "one" });
    else if (c === "[") {
      const end = chars.indexOf("]", i + 2);
      if (end < 0) {
        tokens.push({ kind: "char", char: c });
        continue;
      }
      let body = chars.slice(i + 1, end);
      const negate = body[0] === "!" || body[0] === "^";
      if (negate) body = body.slice(1);
      const ranges: Array<[string, string]> = [];
      for (let j = 0; j < body.length; j++) {
        const from = body[j] === "\\" && j + 1 < body.length ? body[++j] : body[j];
        if (body[j + 1] === "-" && j + 2 < body.length) {
          const to = body[j + 2] === "\\" && j + 3 < body.length ? body[j + 3] : body[j + 2];
          j += body[j + 2] === "\\" ? 3 : 2;
          ranges.push([from, to]);
        } else ranges.push([from, from]);
      }
      tokens.push({ kind: "class", negate, ranges });
      i = end;
    } else tokens.push({ kind: "char", char: c });
  }
  return tokens;
}

function tokenMatches(token: GlobToken, c: string): boolean {
  switch (token.kind) {
    case "one":
      return true;
    case "char":
      return token.char === c;
    case "class": {
      let inside = false;
      for (const [from, to] of token.ranges) {
        if (c >= from && c <= to) {
          inside = true;
          break;
        }
      }
      return inside !== token.negate;
    }
    default:
      return false;
  }
}

/**
 * Wildcard matching with one backtrack point (the last star): every other token matches
 * exactly one character, so O(text × pattern) at worst, never exponential.
 */
function globMatch(tokens: GlobToken[], text: string): boolean {
  const chars = [...text];
  let t = 0;
  let p = 0;
  let starP = -1;
  let starT = 0;
  while (t < chars.length) {
    const token = tokens[p];
    if (token !== undefined && token.kind !== "star" && tokenMatches(token, chars[t])) {
      t++;
      p++;
    } else if (token?.kind === "star") {
      starP = p++;
      starT = t;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else return false;
  }
  while (tokens[p]?.kind === "star") p++;
  return p === tokens.length;
}
