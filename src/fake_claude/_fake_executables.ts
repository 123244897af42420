/**
 * The fake binaries `installFakeClaude()` installed in this process and not disposed of yet: a
 * query whose `pathToClaudeCodeExecutable` is one of them (or the package's own bin, see
 * `isFakeExecutable` in `src/intercept/wrap_claude_sdk.ts`) runs a mock, so the interception lets it through. Kept on `globalThis` under a registered symbol, as the interception's
 * state, so that every copy of the package (an ES and a CommonJS load, a runner's module
 * registry) sees the same set; apart from that state, so the fake binary's start-up loads
 * nothing of the interception. Internal.
 *
 * @module
 */

const KEY = Symbol.for("@x/claude-mock/fake-executables");

/** The paths of the fake binaries installed in this process (the set, made on first use). */
export function fakeExecutables(): Set<string> {
  const holder = globalThis as { [KEY]?: Set<string> };
  return holder[KEY] ??= new Set();
}
