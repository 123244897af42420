/**
 * Finds the Agent SDK's `query` for the runner: the caller's, or the app's own dependency
 * loaded on first use (the library has no runtime dependencies: the SDK is a peer).
 *
 * @module
 * @internal
 */

import { show } from "../wire/_show.ts";
import type { AnyQueryFunction } from "./query_types.ts";

/** The Agent SDK's package name. */
export const SDK_PACKAGE = "@anthropic-ai/claude-agent-sdk";

/**
 * Where the SDK is looked for, in order: the bare name (Node's `node_modules`, Deno's
 * import map or package.json), then Deno's `npm:` specifier.
 */
const SPECIFIERS: readonly string[] = [SDK_PACKAGE, `npm:${SDK_PACKAGE}`];

let loaded: Promise<AnyQueryFunction> | undefined;

/**
 * The `query` to use: `given` when there is one (checked), else the SDK's, imported once.
 * Rejects with an Error saying how to install the SDK or pass `query` when it cannot be
 * loaded.
 */
export function queryFunction(
  given: unknown,
  where: string,
  specifiers: readonly string[] = SPECIFIERS,
): Promise<AnyQueryFunction> {
  if (given !== undefined) {
    if (typeof given !== "function") {
      return Promise.reject(
        new TypeError(
          `${where}: options.query must be the Agent SDK's query function, got ${show(given)}`,
        ),
      );
    }
    return Promise.resolve(given as AnyQueryFunction);
  }
  if (specifiers !== SPECIFIERS) return load(specifiers, where);
  loaded ??= load(specifiers, where).catch((error) => {
    loaded = undefined; // try again next time (the app may install it meanwhile)
    throw error;
  });
  return loaded;
}

async function load(specifiers: readonly string[], where: string): Promise<AnyQueryFunction> {
  const failures: string[] = [];
  let first: unknown;
  for (const specifier of specifiers) {
    try {
      // not a literal: bundlers and `deno publish` leave the peer dependency out
      const module = await import(specifier);
      if (typeof module?.query === "function") return module.query as AnyQueryFunction;
      failures.push(`${specifier}: it has no query function`);
    } catch (error) {
      first ??= error;
      failures.push(
        `${specifier}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
      );
    }
  }
  throw new Error(
    `${where}: cannot load the Agent SDK (${SDK_PACKAGE}), the app's own dependency that ` +
      `the runner drives. Install it (deno add npm:${SDK_PACKAGE}, or npm install ` +
      `${SDK_PACKAGE}) or pass the SDK's query in the options ({ query }). Tried ${
        failures.join("; ")
      }`,
    { cause: first },
  );
}
