/**
 * Node's door for the interception: `node --import @x/claude-mock/register --test` installs
 * module hooks before the app loads, so the app's own `import { query } from
 * "@anthropic-ai/claude-agent-sdk"` runs against the mock a test activates with
 * `mockClaude()`. Importing this module installs them (on Node 20.6 and later); `register()`
 * applies options (`onUnhandledQuery`) from a setup module of your own.
 *
 * @example Options from a setup module of your own (`node --import ./setup.mjs --test`)
 * ```ts
 * import { register } from "@x/claude-mock/register";
 * // on Node: register({ onUnhandledQuery: "bypass" }) before the app is imported; on Deno (as
 * // here) there are no module hooks to install: the import map routes the SDK
 * console.log(typeof register); // function
 * ```
 *
 * @example A test of an unchanged app (run with `node --import @x/claude-mock/register --test`)
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { test } from "node:test";
 * import { mockClaude, ScenarioBuilder } from "@x/claude-mock";
 * import { summarize } from "../src/summarize.js"; // imports query() from the SDK itself
 *
 * test("summarizes", async () => {
 *   const claude = mockClaude(new ScenarioBuilder().on("notes").respond("Two lines.").build());
 *   assert.equal(await summarize("notes.txt"), "Two lines.");
 *   claude.assertWrote(/notes/);
 *   await claude.close();
 * });
 * ```
 *
 * @module
 */

import { register } from "./src/intercept/register.ts";

export { register, type RegisterOptions } from "./src/intercept/register.ts";

// on Node, importing this module is the registration; Deno routes the SDK with an import map
if ((globalThis as { Deno?: unknown }).Deno === undefined) register();
