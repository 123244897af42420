/**
 * `ScrubOptions`: what `scrubTape` replaces besides the secrets, and what `lintTape` looks for.
 *
 * @module
 */

import type { Tape } from "./tape.ts";

/** What `scrubTape` replaces, besides the secrets it always finds. */
export interface ScrubOptions {
  /**
   * Working directories to replace by `<CWD>` (and their project slugs, `/work/x` →
   * `-work-x`, by `<CWD_SLUG>`). Added to the ones the tape names and the machine's.
   */
  cwd?: string | readonly string[];
  /** Home directories to replace by `<HOME>`. */
  home?: string | readonly string[];
  /** Temp directories to replace by `<TMP>`. */
  tmpdir?: string | readonly string[];
  /** User names to replace by `<USER>` where they name a home folder or stand before `@`. */
  user?: string | readonly string[];
  /** Host names to replace by `<HOST>` (whole words, any case). */
  hostname?: string | readonly string[];
  /**
   * The caller's own replacements, applied first to every string: a string (every occurrence)
   * or a RegExp (every match; `$1` works in the replacement) and what replaces it.
   */
  replacements?: Iterable<readonly [string | RegExp, string]>;
  /**
   * Also scrub the running process's cwd, home, temp dir, user and host name (with their real
   * paths), as far as permissions let it read them. Default `true`.
   */
  machine?: boolean;
  /**
   * Also scrub the cwd and home the tape itself names (`system/init`'s `cwd`, hook inputs'
   * `cwd`, `~/.claude/projects/…` paths). Default `true`.
   */
  infer?: boolean;
  /** Called last with the scrubbed tape; what it returns is the result. */
  beforePersist?: (tape: Tape) => Tape;
}
