/**
 * The Agent SDK a conformance run drives, and the real `claude` it ships: the one the project
 * resolves, or a given version installed from npm into a cache folder.
 *
 * @module
 */

import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { realTimeout } from "../timing/real_time.ts";
import { checkExecutable, resolveClaudeBinary, SDK_PACKAGE } from "./resolve_claude.ts";
import type { SdkModule, ZodLike } from "./_sdk_side.ts";

/** An Agent SDK ready to drive. */
export interface AgentSdk {
  /** The module. */
  module: SdkModule;
  /** Its version (`package.json`). */
  version: string;
  /** The CLI version it ships (`claudeCodeVersion` of its `package.json`), if it says. */
  cliVersion?: string;
  /** The URL of its entry module. */
  entry: string;
  /** The real `claude` to run: `claude` of the options, else the SDK's own platform binary. */
  claude: string;
  /** Zod beside it (for in-process MCP tools), if installed. */
  zod?: ZodLike;
}

/** Options for {@linkcode loadAgentSdk}. */
export interface LoadAgentSdkOptions {
  /** An SDK version to install from npm (default: the one the project resolves). */
  version?: string;
  /** Where installed versions are kept (default `$XDG_CACHE_HOME/claude-mock/sdk` or `~/.cache/…`). */
  cacheDir?: string;
  /** The real `claude` to run instead of the SDK's own binary. */
  claude?: string;
  /** How long `npm install` may take (default 10 minutes). */
  installTimeoutMs?: number;
  /** Progress lines (the install). */
  log?: (line: string) => void;
}

/**
 * Loads the Agent SDK: with `version`, from `<cacheDir>/<version>` (installed there with `npm
 * install @anthropic-ai/claude-agent-sdk@<version> zod@4` when missing), else the one the
 * project resolves (`import("@anthropic-ai/claude-agent-sdk")`). Its real `claude` is its own
 * platform binary, resolved as the SDK resolves it, unless `claude` is given.
 *
 * @throws {Error} When npm fails or times out, the SDK cannot be imported, or the binary is
 *   missing or not executable, saying which and how to fix it.
 *
 * @example The project's SDK and its real binary
 * ```ts
 * import { loadAgentSdk } from "@x/claude-mock/cli";
 * const sdk = await loadAgentSdk();
 * console.log(typeof sdk.module.query, sdk.claude.endsWith("/claude")); // function true
 * ```
 */
export async function loadAgentSdk(options: LoadAgentSdkOptions = {}): Promise<AgentSdk> {
  let entry: string;
  let resolveZod: () => string;
  if (options.version !== undefined) {
    if (!/^\d+\.\d+\.\d+([-+][\w.]+)?$/.test(options.version)) {
      throw new TypeError(
        `Cannot load the Agent SDK: '${options.version}' is not a version (like 0.3.332)`,
      );
    }
    const dir = `${options.cacheDir ?? defaultCacheDir()}/${options.version}`;
    const installed = `${dir}/node_modules/${SDK_PACKAGE}/package.json`;
    if (!existsSync(installed) || readJson(installed).version !== options.version) {
      await npmInstall(dir, options);
    }
    // the folder's own node_modules, read directly (a runtime's resolver may prefer its cache)
    entry = pathToFileURL(packageEntry(`${dir}/node_modules/${SDK_PACKAGE}`)).href;
    resolveZod = () => pathToFileURL(packageEntry(`${dir}/node_modules/zod`)).href;
  } else {
    const resolve = (import.meta as { resolve?: (s: string) => string }).resolve;
    if (!resolve) {
      throw new Error("Cannot load the Agent SDK: this runtime has no import.meta.resolve");
    }
    try {
      entry = resolve(SDK_PACKAGE);
    } catch (error) {
      throw new Error(
        `Cannot load the Agent SDK: ${SDK_PACKAGE} does not resolve from this project (${
          (error as Error).message
        }); install it, or pass a version (--sdk)`,
      );
    }
    resolveZod = () => resolve("zod");
  }
  let module: SdkModule;
  try {
    module = await import(entry) as SdkModule;
  } catch (error) {
    throw new Error(`Cannot load the Agent SDK from ${entry}: ${(error as Error).message}`);
  }
  if (typeof module.query !== "function") {
    throw new Error(`Cannot load the Agent SDK from ${entry}: it has no query()`);
  }
  const pkg = readJson(new URL("package.json", entry));
  let zod: ZodLike | undefined;
  try {
    const z = await import(resolveZod()) as { z?: ZodLike; default?: { z?: ZodLike } };
    zod = z.z ?? z.default?.z;
  } catch {
    zod = undefined;
  }
  let claude: string;
  if (options.claude !== undefined) {
    checkExecutable(options.claude);
    claude = options.claude;
  } else claude = resolveClaudeBinary(entry);
  return {
    module,
    version: String(pkg.version),
    ...(typeof pkg.claudeCodeVersion === "string" ? { cliVersion: pkg.claudeCodeVersion } : {}),
    entry,
    claude,
    ...(zod ? { zod } : {}),
  };
}

/** The ES module entry of an installed package (`exports["."]`'s import, else `module`, `main`). */
function packageEntry(dir: string): string {
  const pkg = readJson(`${dir}/package.json`);
  const dot = (pkg.exports as Record<string, unknown> | undefined)?.["."] ?? pkg.exports;
  const pick = (v: unknown): string | undefined => {
    if (typeof v === "string") return v;
    if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      return pick(o.import) ?? pick(o.default) ?? pick(o.node);
    }
    return undefined;
  };
  const file = pick(dot) ?? (pkg.module as string | undefined) ??
    (pkg.main as string | undefined) ??
    "index.js";
  return `${dir}/${file.replace(/^\.\//, "")}`;
}

function defaultCacheDir(): string {
  const env = process.env;
  const base = env.XDG_CACHE_HOME || `${env.HOME ?? "/tmp"}/.cache`;
  return `${base}/claude-mock/sdk`;
}

function readJson(path: string | URL): Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** `npm install` of the SDK (with its optional platform binary) and zod into `dir`. */
function npmInstall(dir: string, options: LoadAgentSdkOptions): Promise<void> {
  const args = [
    "install",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    "--prefix",
    dir,
    `${SDK_PACKAGE}@${options.version}`,
    "zod@^4",
  ];
  options.log?.(`npm ${args.join(" ")}`);
  return new Promise((resolve, reject) => {
    let stderr = "";
    let child;
    try {
      child = spawn(process.platform === "win32" ? "npm.cmd" : "npm", args, {
        stdio: ["ignore", "ignore", "pipe"],
      });
    } catch (error) {
      return reject(
        new Error(
          `Cannot install the Agent SDK ${options.version}: npm: ${(error as Error).message}`,
        ),
      );
    }
    const cancel = realTimeout(() => child.kill("SIGKILL"), options.installTimeoutMs ?? 600_000);
    child.stderr!.on("data", (c) => (stderr += String(c)));
    child.once("error", (error) => {
      cancel();
      reject(
        new Error(
          `Cannot install the Agent SDK ${options.version}: cannot run npm (${error.message})`,
        ),
      );
    });
    child.once("close", (code, signal) => {
      cancel();
      if (code === 0) resolve();
      else {
        reject(
          new Error(
            `Cannot install the Agent SDK ${options.version} into ${dir}: npm install ${
              signal ? `was killed (${signal}, over the time limit)` : `exited ${code}`
            }${stderr.trim() ? `: ${stderr.trim().split("\n").slice(-5).join(" | ")}` : ""}`,
          ),
        );
      }
    });
  });
}
