/**
 * {@linkcode register}: Node's door for the interception. `node --import
 * @x/claude-mock/register` calls it before the app loads.
 *
 * @module
 */

import * as nodeModule from "node:module";
import { interceptionState, markDoor } from "./_interception_state.ts";
import { configureInterception, type InterceptionOptions } from "./configure_interception.ts";

/** Options for {@linkcode register}: the interception's (see `configureInterception`). */
export type RegisterOptions = InterceptionOptions;

type NodeRegister = (specifier: string | URL, parentURL?: string | URL, options?: {
  data?: unknown;
}) => void;

/**
 * Installs Node's module hooks (`module.register`, Node 20.6 and later) that route every
 * later `import` of `@anthropic-ai/claude-agent-sdk` (and its `/core`) to a wrapper whose
 * `query()` runs against the mock `mockClaude()` activated. `node --import
 * @x/claude-mock/register` calls it before anything else loads; called by hand, it must run
 * before the app is imported (a module imported earlier keeps the SDK it got). Calling it
 * again only applies `options`. On Deno it throws: there the import map routes the SDK.
 *
 * @example Installing the hooks from a setup module (`node --import ./setup.mjs --test`)
 * ```ts
 * import { register } from "@x/claude-mock/register";
 * try {
 *   register({ onUnhandledQuery: "bypass" });
 * } catch (error) {
 *   // on Deno (as here) there are no module hooks: the import map routes the SDK
 *   console.log((error as Error).message.startsWith("register() installs Node's")); // true
 * }
 * ```
 */
export function register(options: RegisterOptions = {}): void {
  if ((globalThis as { Deno?: unknown }).Deno !== undefined) {
    throw new TypeError(
      'register() installs Node\'s module hooks; on Deno, map "@anthropic-ai/claude-agent-sdk" to a module that exports wrapClaudeSdk(sdk) in the import map the tests run with (see wrapClaudeSdk)',
    );
  }
  configureInterception(options);
  if (interceptionState().doors.has("node-hooks")) return;
  const install = (nodeModule as { register?: NodeRegister }).register;
  if (typeof install !== "function") {
    const version = (globalThis as { process?: { version?: string } }).process?.version ?? "?";
    throw new TypeError(
      `register() needs Node 20.6 or later (module.register); this is Node ${version}`,
    );
  }
  const ext = import.meta.url.endsWith(".ts") ? "ts" : "js";
  install(new URL(`./_node_hooks.${ext}`, import.meta.url), import.meta.url, {
    data: { wrapModule: new URL(`./wrap_claude_sdk.${ext}`, import.meta.url).href },
  });
  markDoor("node-hooks");
}
