/**
 * Finding the real `claude` binary that an installed Agent SDK ships: its optional platform
 * package (`@anthropic-ai/claude-agent-sdk-linux-x64`, …) resolved from the SDK's own
 * location, as the SDK itself resolves it.
 *
 * @module
 */

import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** The SDK's package name. */
export const SDK_PACKAGE = "@anthropic-ai/claude-agent-sdk";

/**
 * The platform packages to try for this machine, in the SDK's order (on Linux the musl build
 * first when the C library is not glibc).
 */
function platformPackages(
  platform: string = process.platform,
  arch: string = process.arch,
  musl: boolean = isMusl(),
): string[] {
  const base = `${SDK_PACKAGE}-`;
  if (platform === "linux") {
    return musl
      ? [`${base}linux-${arch}-musl`, `${base}linux-${arch}`]
      : [`${base}linux-${arch}`, `${base}linux-${arch}-musl`];
  }
  return [`${base}${platform}-${arch}`];
}

function isMusl(): boolean {
  try {
    const report = (process as { report?: { getReport?: () => unknown } }).report?.getReport?.() as
      | { header?: { glibcVersionRuntime?: string } }
      | undefined;
    return report?.header !== undefined && report.header.glibcVersionRuntime === undefined;
  } catch {
    return false;
  }
}

/**
 * The path of the `claude` binary the SDK at `sdkEntry` (the URL or path of its entry module,
 * e.g. `import.meta.resolve("@anthropic-ai/claude-agent-sdk")`) would run, checked to be an
 * executable file.
 *
 * @throws {Error} When no platform package is installed beside the SDK, or its binary is not
 *   an executable file, naming what was tried and how to install it.
 *
 * @example The binary of the project's SDK
 * ```ts
 * import { resolveClaudeBinary } from "@x/claude-mock/cli";
 * const claude = resolveClaudeBinary(import.meta.resolve("@anthropic-ai/claude-agent-sdk"));
 * console.log(claude.endsWith("/claude")); // true
 * ```
 */
export function resolveClaudeBinary(sdkEntry: string | URL): string {
  const require = createRequire(sdkEntry);
  const tried: string[] = [];
  const windows = process.platform === "win32";
  for (const pkg of platformPackages()) {
    const specifier = `${pkg}/claude${windows ? ".exe" : ""}`;
    // node_modules beside the SDK first (an npm install), as Node resolves; then the runtime's
    // own resolution (Deno's npm cache keeps each package in a folder of its own)
    let path = besideSdk(sdkEntry, specifier);
    if (path === undefined) {
      try {
        path = require.resolve(specifier);
      } catch {
        tried.push(`${specifier} (not installed)`);
        continue;
      }
    }
    checkExecutable(path);
    return path;
  }
  throw new Error(
    `Cannot find the real claude binary of the SDK at ${String(sdkEntry)}: tried ${
      tried.join(", ")
    }. The SDK installs it as an optional dependency: reinstall the SDK without --no-optional ` +
      "(npm install @anthropic-ai/claude-agent-sdk), or pass the binary's path (--claude PATH)",
  );
}

/** `specifier` in a `node_modules` folder above the SDK's entry (Node's lookup), if there is one. */
function besideSdk(sdkEntry: string | URL, specifier: string): string | undefined {
  const entry = String(sdkEntry);
  let dir = entry.startsWith("file:") ? fileURLToPath(entry) : entry;
  for (;;) {
    const up = dir.slice(0, dir.lastIndexOf("/"));
    if (up === dir || up === "") return undefined;
    dir = up;
    if (dir.endsWith("/node_modules")) continue;
    const candidate = `${dir}/node_modules/${specifier}`;
    if (existsSync(candidate)) return candidate;
  }
}

/** Throws a clear error unless `path` is an executable file. */
export function checkExecutable(path: string): void {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    const code = (error as { code?: string }).code ?? String(error);
    throw new Error(`Cannot run the real claude at ${path}: it does not exist (${code})`);
  }
  if (!stat.isFile()) throw new Error(`Cannot run the real claude at ${path}: it is not a file`);
  if (process.platform !== "win32" && (Number(stat.mode) & 0o111) === 0) {
    throw new Error(
      `Cannot run the real claude at ${path}: it is not executable (mode ${
        (Number(stat.mode) & 0o777).toString(8)
      }; chmod +x it)`,
    );
  }
}
