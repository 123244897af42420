/**
 * vitest's door for the interception, a setup file: with `setupFiles:
 * ["@x/claude-mock/vitest"]` in the vitest config, every test file's import of
 * `@anthropic-ai/claude-agent-sdk` (and `/core`) is the SDK with `query()`, `startup()` and
 * `prewarm()` run against the mock a test activates with `mockClaude()` (a `vi.mock` whose
 * factory wraps the real module). vitest mocks the modules it transforms: the app's own
 * sources; a dependency in `node_modules` that imports the SDK needs `server.deps.inline`. Each
 * test starts with no mock of an earlier test, and a mock a test leaves active is closed after
 * it (vitest runs a file's tests in one async context).
 *
 * @example vitest.config.js
 * ```js ignore
 * import { defineConfig } from "vitest/config";
 * export default defineConfig({ test: { setupFiles: ["@x/claude-mock/vitest"] } });
 * ```
 *
 * @example Importing it (vitest does, for each test file; on Deno it does nothing)
 * ```ts
 * import "@x/claude-mock/vitest";
 * ```
 *
 * @module
 */

import { eachTest, markDoor, ROUTED_SPECIFIERS } from "./src/intercept/_interception_state.ts";
import { wrapClaudeSdk } from "./src/intercept/wrap_claude_sdk.ts";

interface Vitest {
  vi: { mock(path: string, factory: (importOriginal: () => Promise<unknown>) => unknown): void };
  beforeEach(fn: () => unknown): void;
  afterEach(fn: () => unknown): void;
}

// on Deno there is nothing to do: the import map routes the SDK (see wrapClaudeSdk)
if ((globalThis as { Deno?: unknown }).Deno === undefined) {
  // a computed specifier: vitest is the runner's, not a dependency of this package; not named
  // `vi`, so vitest's transform does not hoist the calls out of the loop (they run at once:
  // this setup file runs before each test file is imported)
  const load = (specifier: string) => import(specifier) as Promise<Vitest>;
  const { vi: mocker, beforeEach: beforeEachTest, afterEach: afterEachTest } = await load(
    String("vitest"),
  ).catch((error) => {
    // the vm pools (vmThreads, vmForks) hand a computed bare specifier to their module runner
    // unresolved, which finds no file "vitest": resolved from here, it is the runner's vitest
    const url = (import.meta as { resolve?: (specifier: string) => string }).resolve?.("vitest");
    if (url === undefined) throw error;
    return load(url);
  }).catch((error) => {
    throw new TypeError(
      `@x/claude-mock/vitest is a vitest setup file: list it in test.setupFiles of the vitest config (vitest could not be imported here: ${
        (error as Error)?.message ?? error
      })`,
      { cause: error },
    );
  });
  for (const specifier of ROUTED_SPECIFIERS) {
    mocker.mock(
      specifier,
      async (importOriginal) => wrapClaudeSdk(await importOriginal() as object),
    );
  }
  // vitest runs a file's tests in one async context: each test starts with no mock of an
  // earlier test, and a mock a test leaves active is closed after it
  beforeEachTest(() => eachTest.start());
  afterEachTest(() => eachTest.end());
  markDoor("vitest");
}
