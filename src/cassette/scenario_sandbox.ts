/**
 * `scenarioSandbox(scenario)`: what the real `claude` needs to run a scenario without an API
 * key: the scenario-driven Messages API, a fresh working directory (with the files the
 * scenario expects), a fresh config folder, and the environment pointing the CLI at them.
 *
 * @module
 */

import type { JournalEntry } from "../messages_api/api_journal.ts";
import {
  type MessagesApi,
  type MessagesApiOptions,
  serveMessagesApi,
} from "../messages_api/serve_messages_api.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { makeTempDir, mkdirp, removeTree, writeText } from "../host/_fs.ts";

/** Options for {@linkcode scenarioSandbox}. */
export interface ScenarioSandboxOptions {
  /**
   * Files to create in the working directory before the CLI starts (relative paths, or
   * paths under the scenario's `cwd`), with their contents: what the scenario's Read and
   * Edit uses expect to find.
   */
  files?: Readonly<Record<string, string>>;
  /**
   * Environment variables for the CLI on top of the sandbox's (they win). The sandbox sets
   * `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY` (a dummy), `CLAUDE_CONFIG_DIR`,
   * `CLAUDE_CODE_TMPDIR`, `XDG_CACHE_HOME` (all in the sandbox), `DISABLE_TELEMETRY=1`,
   * `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1` and `CLAUDE_CODE_MAX_RETRIES=2` (a failure
   * scenario ends in seconds instead of the CLI's three minutes of back-off).
   */
  env?: Readonly<Record<string, string>>;
  /** The Messages API's options (`port`, `retryAfterSeconds`, `pace`, `onRequest`). */
  api?: Omit<MessagesApiOptions, "cwd">;
  /** Where to make the sandbox's folder (default: the system's temp folder). */
  dir?: string;
}

/** A running sandbox; `close()` it (or `await using`) to stop the API and remove the folders. */
export interface ScenarioSandbox {
  /** The Messages API. */
  readonly api: MessagesApi;
  /** The working directory the CLI runs in. */
  readonly cwd: string;
  /** `CLAUDE_CONFIG_DIR`. */
  readonly configDir: string;
  /** The variables to add to the CLI's environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Every request the API got (`api.journal`). */
  readonly journal: readonly JournalEntry[];
  /** Stops the API and removes the sandbox's folders. */
  close(): Promise<void>;
  /** `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts the scenario's Messages API (its `cwd` mapped to the sandbox's working directory)
 * and makes a sandbox folder with `project/` (the cwd, with `files`), `config/`
 * (`CLAUDE_CONFIG_DIR`), `tmp/` and `cache/`. Run the real CLI with `cwd` and `env` (on top
 * of its own environment): its model calls go to the scenario, its tools run for real in
 * `cwd`, its state stays in the sandbox.
 *
 * @param scenario The scenario whose model side the API serves.
 * @param options `files`, `env`, `api`, `dir`.
 * @returns The sandbox.
 * @throws {TypeError} A scenario the API cannot serve, or a file path outside the cwd.
 *
 * @example The environment for a real `claude -p`
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * import { scenarioSandbox } from "@x/claude-mock/cassette";
 * await using sandbox = await scenarioSandbox(
 *   new ScenarioBuilder().on("hello").respond("Hi!").build(),
 *   { files: { "notes.txt": "Remember the milk.\n" } },
 * );
 * console.log(sandbox.env.ANTHROPIC_BASE_URL === sandbox.api.url); // true
 * console.log(await Deno.readTextFile(`${sandbox.cwd}/notes.txt`)); // Remember the milk.
 * ```
 */
export async function scenarioSandbox(
  scenario: Scenario,
  options: ScenarioSandboxOptions = {},
): Promise<ScenarioSandbox> {
  const scenarioCwd = scenario?.cwd ?? "/home/user/project";
  const files = Object.entries(options.files ?? {}).map(([path, content]) => {
    const relative = path.startsWith(`${scenarioCwd}/`) ? path.slice(scenarioCwd.length + 1) : path;
    if (relative.startsWith("/") || relative.split("/").includes("..") || relative === "") {
      throw new TypeError(
        `Cannot make the sandbox: the file ${
          JSON.stringify(path)
        } is outside the working directory (give a relative path, or one under ${scenarioCwd})`,
      );
    }
    if (typeof content !== "string") {
      throw new TypeError(
        `Cannot make the sandbox: the content of ${JSON.stringify(path)} must be a string`,
      );
    }
    return [relative, content] as const;
  });
  const root = options.dir
    ? await makeTempDirIn(options.dir)
    : await makeTempDir("claude-mock-sandbox-");
  let api: MessagesApi | undefined;
  try {
    const cwd = `${root}/project`;
    const configDir = `${root}/config`;
    for (const dir of [cwd, configDir, `${root}/tmp`, `${root}/cache`]) await mkdirp(dir);
    for (const [relative, content] of files) {
      const path = `${cwd}/${relative}`;
      await mkdirp(path.slice(0, path.lastIndexOf("/")));
      await writeText(path, content);
    }
    api = await serveMessagesApi(scenario, { ...options.api, cwd });
    const env: Record<string, string> = {
      ...api.env(),
      CLAUDE_CONFIG_DIR: configDir,
      CLAUDE_CODE_TMPDIR: `${root}/tmp`,
      XDG_CACHE_HOME: `${root}/cache`,
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      CLAUDE_CODE_MAX_RETRIES: "2",
      ...options.env,
    };
    const running = api;
    let closing: Promise<void> | undefined;
    const close = () =>
      closing ??= (async () => {
        await running.close();
        await removeTree(root).catch(() => {});
      })();
    return {
      api: running,
      cwd,
      configDir,
      env,
      journal: running.journal,
      close,
      [Symbol.asyncDispose]: close,
    };
  } catch (error) {
    await api?.close();
    await removeTree(root).catch(() => {});
    throw error;
  }
}

async function makeTempDirIn(dir: string): Promise<string> {
  await mkdirp(dir);
  const path = `${dir.replace(/\/+$/, "")}/sandbox-${Date.now().toString(36)}-${
    Math.random().toString(36).slice(2, 8)
  }`;
  await mkdirp(path);
  return path;
}
