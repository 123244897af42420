/**
 * The runtime flags the bundled binary (`dist/bin.js`) runs with on Deno: its shebang has them
 * (`scripts/build_bin.ts`) and `installFakeClaude` passes them. Internal.
 *
 * - `--no-lazy`: V8 compiles every function when it compiles the module, and Deno makes its
 *   code cache at that moment, so the cache holds them all and a run compiles nothing. By
 *   default the cache holds only the top level, and each run compiled about 100 KB of
 *   functions again.
 * - `--single-threaded`: no V8 worker threads for a process that lives for tens of
 *   milliseconds (measured: about 4 ms less start-up, the same speed on a long stream).
 * - `--no-sparkplug`: no baseline compilation. In a run of `-p hello` V8 baseline-compiled
 *   about 80 KB of bytecode (module bodies and the turn's async functions, which run once):
 *   about 1.2 ms. A 760-line stream runs as fast, a 7600-line one about 5% slower (Maglev
 *   and TurboFan still optimize what stays hot).
 *
 * The shebang and the shim must agree: a V8 code cache carries the flags it was made with,
 * and a run with other flags throws the bundle's cache away and makes it anew. The sources
 * (`cli.ts`) run without them, for the same reason: the app imports those modules too.
 *
 * @module
 */

/** The `deno run` option that sets them. */
const BIN_V8_FLAGS: string = "--v8-flags=--no-lazy,--single-threaded,--no-sparkplug";

/**
 * Everything after `deno run -A` that runs the bundle: no config file search (a project's
 * `deno.json` or lock file is not the binary's), no npm resolution (the bundle imports no
 * npm package; setting it up costs Deno about 1.2 ms), and {@linkcode BIN_V8_FLAGS}.
 */
export const BIN_RUN_FLAGS: readonly string[] = Object.freeze([
  "--no-config",
  "--no-npm",
  BIN_V8_FLAGS,
]);
