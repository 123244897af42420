/**
 * Puts a fake `claude` executable into a temporary folder for tests: a program that shells
 * out to `claude` finds it first on `PATH`, and the SDK runs it through
 * `pathToClaudeCodeExecutable`. On Deno the executable runs the bundled binary (`dist/bin.js`,
 * built from `cli.ts`'s sources by `deno task build:bin`) with this Deno, on Node the package's
 * `bin` with this Node. It runs the binary by its path and imports none of its code (`src/cli/`),
 * so the binary's subcommands and the conformance runner (`src/conform/`) both sit above it.
 *
 * @module
 */

import { BIN_RUN_FLAGS } from "./_bin_flags.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { scenarioToJSON } from "../scenario/scenario_to_json.ts";
import type { FailureName } from "../scenario/named_failures.ts";
import { type CaptureLog, readCapture } from "./capture.ts";
import { chmod, fileTime, makeTempDir, removeTree, writeText } from "../host/_fs.ts";
import { hostEnv, hostExecPath, onDeno } from "../host/_process.ts";
import { fakeExecutables } from "./_fake_executables.ts";

/** Options for {@linkcode installFakeClaude}. */
export interface InstallFakeClaudeOptions {
  /** The scenario: a `Scenario` that is data (saved as a file), or a scenario file's path. */
  scenario?: Scenario | string;
  /** A named failure every invocation runs into. */
  failure?: FailureName;
  /** More environment for the fake (e.g. `CLAUDE_CODE_MAX_RETRIES`). */
  env?: Record<string, string>;
}

/** An installed fake `claude`. Dispose it (`await using`) to remove its folder. */
export interface FakeClaude extends AsyncDisposable {
  /** The executable's absolute path (for `pathToClaudeCodeExecutable`). */
  readonly path: string;
  /** Its folder. */
  readonly dir: string;
  /**
   * The environment to run programs with: `PATH` with the fake's folder first, the scenario
   * and failure, and `options.env`; and `CLAUDE_AGENT_SDK_VERSION` empty: an SDK's `query()`
   * leaves its version in its process's environment, which a program run from that process
   * would pass on though no SDK spawned it (the fake then claims the CLI of the SDK installed
   * for its working directory or beside it; an SDK that spawns it still names its own).
   */
  readonly env: Record<string, string>;
  /** The capture file every run appends to. */
  readonly captureFile: string;
  /** What the runs so far did. */
  capture(): Promise<CaptureLog>;
  /** Removes the folder. */
  dispose(): Promise<void>;
}

/**
 * Writes a `claude` executable into a new temporary folder: a shell script running the bundled
 * binary (`dist/bin.js`; `cli.ts` where there is no bundle) with this Deno, or on Node the npm
 * package's `bin` with this Node.
 *
 * @example A fake `claude` on PATH
 * ```ts
 * import { installFakeClaude } from "@x/claude-mock/cli";
 * await using claude = await installFakeClaude();
 * const out = await new Deno.Command("claude", { args: ["-p", "hi"], env: claude.env }).output();
 * console.log(new TextDecoder().decode(out.stdout)); // Hello! How can I help?
 * ```
 */
export async function installFakeClaude(
  options: InstallFakeClaudeOptions = {},
): Promise<FakeClaude> {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError(
      `Cannot install the fake claude: the options must be an object, got ${
        options === null ? "null" : Array.isArray(options) ? "an array" : typeof options
      }`,
    );
  }
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (typeof value !== "string") {
      throw new TypeError(
        `Cannot install the fake claude: options.env.${name} must be a string, got ${
          value === null ? "null" : typeof value
        }`,
      );
    }
  }
  const dir = await makeTempDir("fake-claude-");
  const captureFile = `${dir}/capture.jsonl`;
  // its own config and state folders: transcripts and invocation counts stay in the folder
  const env: Record<string, string> = {
    PATH: `${dir}:${hostEnv().PATH ?? ""}`,
    CLAUDE_CONFIG_DIR: `${dir}/config`,
    CLAUDE_MOCK_STATE_DIR: `${dir}/state`,
    CLAUDE_MOCK_CAPTURE: captureFile,
    CLAUDE_AGENT_SDK_VERSION: "",
    ...options.env,
  };
  if (typeof options.scenario === "string") env.CLAUDE_MOCK_SCENARIO = options.scenario;
  else if (options.scenario) {
    const file = `${dir}/scenario.json`;
    await writeText(file, JSON.stringify(scenarioToJSON(options.scenario)));
    env.CLAUDE_MOCK_SCENARIO = file;
  }
  if (options.failure) env.CLAUDE_MOCK_FAILURE = options.failure;
  const path = `${dir}/claude`;
  const command = [hostExecPath(), ...await runArgs()].map(quote).join(" ");
  await writeText(path, `#!/bin/sh\nexec ${command} "$@"\n`);
  await chmod(path, 0o755);
  // a query of the app pointed at it runs a mock: the interception lets it through
  fakeExecutables().add(path);
  const dispose = () => {
    fakeExecutables().delete(path);
    return removeTree(dir).catch(() => {});
  };
  return {
    path,
    dir,
    env,
    captureFile,
    capture: () => readCapture(captureFile),
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}

/**
 * The runtime's arguments that run the fake binary: a bundle (one module to load instead of
 * ~120: most of the binary's start-up), on Deno `dist/bin.js` with its flags, on Node the npm
 * package's bin (`dist/node/claude-mock.cjs`); where there is none, the `cli` entry on Deno,
 * `src/cli/bin.js` on Node.
 */
async function runArgs(): Promise<string[]> {
  const local = (url: URL) =>
    url.protocol === "file:" ? decodeURIComponent(url.pathname) : url.href;
  // this module's own extension: `.js` in the npm package, `.ts` in the sources
  const ext = /\.[cm]?[jt]s$/.exec(new URL(import.meta.url).pathname)?.[0] ?? ".js";
  if (onDeno) {
    const bundle = new URL("../../dist/bin.js", import.meta.url);
    if (bundle.protocol !== "file:" || (await fileTime(local(bundle))) !== undefined) {
      // the bundle's own flags, as its shebang has them (_bin_flags.ts says why)
      return ["run", "-A", ...BIN_RUN_FLAGS, "--quiet", local(bundle)];
    }
    return [
      "run",
      "-A",
      "--no-config",
      "--quiet",
      local(new URL(`../../cli${ext}`, import.meta.url)),
    ];
  }
  // the npm package's bin: the bundle for Node (scripts/node_bin.ts)
  const nodeBin = new URL("../../dist/node/claude-mock.cjs", import.meta.url);
  if ((await fileTime(local(nodeBin))) !== undefined) return [local(nodeBin)];
  return [local(new URL(`../cli/bin${ext}`, import.meta.url))];
}

function quote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
