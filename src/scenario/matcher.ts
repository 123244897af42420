/**
 * Matchers: what an exchange's trigger, or a wait, looks for in what the SDK wrote.
 *
 * @module
 */

import type { Frame } from "../wire/frame.ts";

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
  return {
    kind: "contains",
    description: `contains ${JSON.stringify(needle)}`,
    test: (t) => t.includes(needle),
  };
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
  return {
    kind: "exact",
    description: `equals ${JSON.stringify(expected)}`,
    test: (t) => t.trim() === want,
  };
}

/**
 * Matches text that a regular expression matches (`lastIndex` is reset for `g`/`y`).
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
 * Matches the whole text against a glob: `*` any run of characters, `?` one character,
 * `[abc]` a class; `\` escapes.
 *
 * @example Glob
 * ```ts
 * import { glob } from "@x/claude-mock";
 * console.log(glob("read *.txt").test("read notes.txt", { type: "user" })); // true
 * ```
 */
export function glob(pattern: string): Matcher {
  const re = globToRegExp(pattern);
  return {
    kind: "glob",
    description: `matches glob ${JSON.stringify(pattern)}`,
    test: (t) => re.test(t.trim()),
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
 * import { toMatcher } from "@x/claude-mock";
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
    `Invalid trigger: expected a string, RegExp, function or Matcher, got ${describe(trigger)}`,
  );
}

/**
 * The text of a frame as matchers see it: a `user` frame's joined text blocks (or its
 * string content), else the frame as JSON.
 *
 * @example Text of a prompt
 * ```ts
 * import { frameText } from "@x/claude-mock";
 * const frame = { type: "user", message: { role: "user", content: [{ type: "text", text: "hi" }] } };
 * console.log(frameText(frame)); // hi
 * ```
 */
export function frameText(frame: Frame): string {
  if (frame.type === "user") {
    const content = (frame.message as { content?: unknown } | undefined)?.content;
    if (typeof content === "string") return content;
    if (Array.isArray(content)) {
      return content
        .map((b) => (b && typeof b === "object" && typeof b.text === "string" ? b.text : ""))
        .filter((s) => s !== "")
        .join("\n");
    }
  }
  return JSON.stringify(frame);
}

function globToRegExp(pattern: string): RegExp {
  let out = "^";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\" && i + 1 < pattern.length) out += escape(pattern[++i]);
    else if (c === "*") out += "[\\s\\S]*";
    else if (c === "?") out += "[\\s\\S]";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 1);
      if (end < 0) out += "\\[";
      else {
        let cls = pattern.slice(i + 1, end).replace(/\\/g, "\\\\");
        if (cls.startsWith("!")) cls = "^" + cls.slice(1);
        out += `[${cls}]`;
        i = end;
      }
    } else out += escape(c);
  }
  return new RegExp(out + "$");
}

function escape(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? "\\" + c : c;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
