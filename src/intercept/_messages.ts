/**
 * The interception's error texts, naming what the user's runner needs. Internal.
 *
 * @module
 */

import { show } from "../wire/_show.ts";

/** The runner this process runs under, as far as the environment says. */
function runnerName(): "deno" | "vitest" | "jest" | "node" {
  if ((globalThis as { Deno?: unknown }).Deno !== undefined) return "deno";
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env ?? {};
  if (env.VITEST !== undefined) return "vitest";
  if (env.JEST_WORKER_ID !== undefined) return "jest";
  return "node";
}

/** How to route the SDK to the mock under `runner`. */
export function howToIntercept(runner: ReturnType<typeof runnerName> = runnerName()): string {
  switch (runner) {
    case "deno":
      return 'map "@anthropic-ai/claude-agent-sdk" to a module that exports wrapClaudeSdk(sdk) in the import map the tests run with (deno test -A --config deno.test.json; see wrapClaudeSdk)';
    case "vitest":
      return 'add "@x/claude-mock/vitest" to test.setupFiles in the vitest config';
    case "jest":
      return 'add "@x/claude-mock/jest" to setupFilesAfterEnv in the jest config (jest runs ES modules with NODE_OPTIONS=--experimental-vm-modules)';
    default:
      return "run node with --import @x/claude-mock/register (node --import @x/claude-mock/register --test), or call register() from @x/claude-mock/register before the app is imported";
  }
}

/** Why `mockClaude()` cannot activate: nothing routes the SDK to the wrapper. */
export function notInterceptedMessage(): string {
  return "Cannot activate mockClaude(): the app's import of @anthropic-ai/claude-agent-sdk is not " +
    "routed to claude-mock, so its query() would run the real Claude Code CLI. To route it, " +
    `${howToIntercept()}.`;
}

/** Why a query with no active mock fails (`onUnhandledQuery: "error"`). */
export function unhandledMessage(
  call: string,
  prompt: string | undefined,
  mocks: { closed?: string; elsewhere?: string } = {},
): string {
  const shown = prompt === undefined ? "" : ` (prompt ${show(prompt)})`;
  const why = mocks.elsewhere
    ? ` (${mocks.elsewhere} is active in another async context: a hook such as beforeEach, ` +
      "or another test; call mockClaude() in the test itself, or pass { global: true } to a " +
      "mock set up in a hook for tests that run one at a time)"
    : mocks.closed
    ? ` (${mocks.closed} was closed)`
    : "";
  return `Cannot run ${call}()${shown} of @anthropic-ai/claude-agent-sdk: no Claude mock is ` +
    `active here${why}. Call mockClaude(scenario) in the test before the code under test queries, ` +
    'or let queries without a mock reach the real CLI: configureInterception({ onUnhandledQuery: "bypass" })';
}
