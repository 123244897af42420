/**
 * {@linkcode wrapClaudeSdk}: the Agent SDK module with `query()`, `startup()` and
 * `prewarm()` routed to the active mock; everything else as it is.
 *
 * @module
 */

import { realpathSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";
import { MOCK_EXECUTABLE_PATH } from "../adapters/mock_transport.ts";
import type { SpawnOptionsLike } from "../adapters/mock_process.ts";
import {
  activeMock,
  closedMock,
  interceptionState,
  markDoor,
  mockElsewhere,
} from "./_interception_state.ts";
import { fakeExecutables } from "../fake_claude/_fake_executables.ts";
import { unhandledMessage } from "./_messages.ts";

/** The SDK functions that start a `claude` process, and so go to the mock. */
const ROUTED_CALLS: readonly string[] = Object.freeze(["query", "startup", "prewarm"]);

type Params = { prompt?: unknown; options?: Record<string, unknown> } | undefined;

/** `params` with the options that run the call against the active mock, or as it is. */
function route(call: string, params: Params): Params {
  const options = params?.options;
  const mock = activeMock();
  if (mock) {
    return {
      ...params,
      options: {
        ...options,
        ...mock.sdkOptions,
        spawnClaudeCodeProcess: (spawn: SpawnOptionsLike) => mock.spawnFor(spawn),
        // never run by a mock; a recording cassette runs what the SDK resolves (its native
        // binary, or the app's own pathToClaudeCodeExecutable)
        ...(mock.runsRealCli ? {} : { pathToClaudeCodeExecutable: MOCK_EXECUTABLE_PATH }),
      },
    };
  }
  // the caller routes the process itself (a MockTransport's options, its own sandbox)
  if (typeof options?.spawnClaudeCodeProcess === "function") return params;
  // the caller runs a fake binary (installFakeClaude()'s, the package's bin): a mock too
  const executable = options?.pathToClaudeCodeExecutable;
  if (typeof executable === "string" && isFakeExecutable(executable)) return params;
  const strategy = interceptionState().onUnhandledQuery;
  const prompt = typeof params?.prompt === "string" ? params.prompt : undefined;
  if (typeof strategy === "function") {
    strategy({ call, prompt, options });
    return params;
  }
  if (strategy === "bypass") return params;
  if (strategy === "warn") {
    console.warn(
      `claude-mock: ${call}()${
        prompt === undefined ? "" : ` (prompt ${JSON.stringify(prompt.slice(0, 60))})`
      } ran with no mock active: it reaches the real Claude Code CLI`,
    );
    return params;
  }
  throw new Error(unhandledMessage(call, prompt, {
    closed: closedMock()?.label,
    elsewhere: mockElsewhere()?.label,
  }));
}

/** The package's own fake binaries: the npm package's bin, and Deno's bundle. */
const OWN_BINS: readonly URL[] = [
  new URL("../../dist/node/claude-mock.cjs", import.meta.url),
  new URL("../../dist/bin.js", import.meta.url),
];

/**
 * Whether `path` (as `pathToClaudeCodeExecutable` gives it, relative to the process's folder)
 * runs a fake binary: one of `installFakeClaude()`, or the package's own bin, through any
 * link (`node_modules/.bin/claude-mock`). Internal.
 */
export function isFakeExecutable(path: string): boolean {
  if (fakeExecutables().has(path)) return true;
  let real: string;
  try {
    real = realpathSync(resolvePath(path));
  } catch {
    return false; // not a file here: not ours
  }
  return OWN_BINS.some((bin) => {
    if (bin.protocol !== "file:") return false;
    try {
      return realpathSync(fileURLToPath(bin)) === real;
    } catch {
      return false;
    }
  });
}

/**
 * The Agent SDK module `sdk` (its namespace object, or what a runner's `importOriginal()`
 * gives) with `query()`, `startup()` and `prewarm()` run against the mock that
 * `mockClaude()` activated, where they are called; every other export as it is. It is what
 * the doors install (`@x/claude-mock/register`, `/vitest`, `/jest`), and Deno's door: a
 * module of the tests that the import map puts in place of the SDK,
 *
 * ```ts ignore
 * // claude_sdk.ts; deno.test.json: { "imports": { "@anthropic-ai/claude-agent-sdk": "./claude_sdk.ts" } }
 * import * as sdk from "npm:@anthropic-ai/claude-agent-sdk@0.3.328";
 * import { wrapClaudeSdk } from "jsr:@x/claude-mock";
 * export * from "npm:@anthropic-ai/claude-agent-sdk@0.3.328";
 * export const { query, startup, prewarm } = wrapClaudeSdk(sdk);
 * ```
 *
 * run as `deno test -A --config deno.test.json`. Call it yourself for another runner's module
 * mocks too (Bun's `mock.module`, a custom loader).
 *
 * @example A module mock of your own
 * ```ts
 * import * as sdk from "@anthropic-ai/claude-agent-sdk";
 * import { mockClaude, ScenarioBuilder, wrapClaudeSdk } from "@x/claude-mock";
 *
 * const wrapped = wrapClaudeSdk(sdk); // what a runner's module mock would return
 * console.log(wrapped.tool === sdk.tool, wrapped.query === sdk.query); // true false
 * await using _claude = mockClaude(new ScenarioBuilder().on("hi").respond("Hello!").build());
 * for await (const m of wrapped.query({ prompt: "hi" })) {
 *   if (m.type === "result" && m.subtype === "success") console.log(m.result); // Hello!
 * }
 * ```
 */
export function wrapClaudeSdk<T extends object>(sdk: T): T {
  if (
    typeof sdk !== "object" || sdk === null ||
    typeof (sdk as { query?: unknown }).query !== "function"
  ) {
    throw new TypeError(
      "Cannot wrap the Agent SDK: expected the @anthropic-ai/claude-agent-sdk module (an object with a query function)",
    );
  }
  markDoor("custom");
  const real = sdk as unknown as Record<string, unknown>;
  const wrapped: Record<string, unknown> = { ...real };
  for (const call of ROUTED_CALLS) {
    const original = real[call];
    if (typeof original !== "function") continue;
    wrapped[call] = function (this: unknown, params?: Params, ...rest: unknown[]) {
      return original.call(this, route(call, params), ...rest);
    };
  }
  return wrapped as T;
}
