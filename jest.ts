/**
 * jest's door for the interception (jest with ES modules), a setup file: with
 * `setupFilesAfterEnv: ["@x/claude-mock/jest"]` in the jest config and jest run with
 * `NODE_OPTIONS=--experimental-vm-modules`, every test file's import of
 * `@anthropic-ai/claude-agent-sdk` (and `/core`) is the SDK with `query()`, `startup()` and
 * `prewarm()` run against the mock a test activates with `mockClaude()`
 * (`jest.unstable_mockModule` with the real module wrapped). Static imports in the test
 * files get it: the setup file runs before them.
 *
 * @example jest.config.js
 * ```js ignore
 * export default { setupFilesAfterEnv: ["@x/claude-mock/jest"], transform: {} };
 * ```
 *
 * @example Importing it (jest does, for each test file; on Deno it does nothing)
 * ```ts
 * import "@x/claude-mock/jest";
 * ```
 *
 * @module
 */

import { markDoor, ROUTED_SPECIFIERS } from "./src/intercept/_interception_state.ts";
import { wrapClaudeSdk } from "./src/intercept/wrap_claude_sdk.ts";

interface Jest {
  unstable_mockModule(path: string, factory: () => unknown): unknown;
}

// on Deno there is nothing to do: the import map routes the SDK (see wrapClaudeSdk)
if ((globalThis as { Deno?: unknown }).Deno === undefined) {
  const jest = (import.meta as { jest?: Jest }).jest;
  if (typeof jest?.unstable_mockModule !== "function") {
    throw new TypeError(
      "@x/claude-mock/jest is a jest setup file for ES modules: list it in setupFilesAfterEnv of the jest config and run jest with NODE_OPTIONS=--experimental-vm-modules",
    );
  }
  for (const [i, specifier] of ROUTED_SPECIFIERS.entries()) {
    let real: object;
    try {
      real = await import(specifier);
    } catch (error) {
      if (i > 0) continue; // an SDK without this entry
      throw new Error(
        `@x/claude-mock/jest cannot import ${specifier}: install it (npm install @anthropic-ai/claude-agent-sdk)`,
        { cause: error },
      );
    }
    jest.unstable_mockModule(specifier, () => wrapClaudeSdk(real));
  }
  markDoor("jest");
}
