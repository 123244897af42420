/**
 * Finds the Agent SDK installed where a process runs: the nearest
 * `node_modules/@anthropic-ai/claude-agent-sdk` from a folder up to the root, its version,
 * and the CLI version its `manifest.json` names (the CLI it bundles). The mock impersonates
 * that CLI when nothing more specific says which (see `resolveCliVersion`). Internal.
 *
 * @module
 */

/** An installed Agent SDK: its version and the CLI version it bundles. */
export interface InstalledSdk {
  /** The SDK's `package.json` version. */
  version: string;
  /** The CLI version its `manifest.json` names (else its `claudeCodeVersion`). */
  cliVersion: string;
  /** The folder it was found in. */
  dir: string;
}

type ReadText = (path: string) => string | undefined;

/** A synchronous file read: Deno's own (no `node:fs` to load), else Node's built-in module. */
function defaultReader(): ReadText | undefined {
  const deno = (globalThis as { Deno?: { readTextFileSync(path: string): string } }).Deno;
  if (deno) {
    return (path) => {
      try {
        return deno.readTextFileSync(path);
      } catch {
        return undefined;
      }
    };
  }
  const get = (globalThis as {
    process?: { getBuiltinModule?: (name: string) => unknown };
  }).process?.getBuiltinModule;
  const fs = get?.("node:fs") as { readFileSync(path: string, enc: string): string } | undefined;
  if (!fs) return undefined;
  return (path) => {
    try {
      return fs.readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
  };
}

const cache = new Map<string, InstalledSdk | null>();

/**
 * The Agent SDK installed for `cwd` (looked up once per folder), or `undefined` when there
 * is none, or files cannot be read here.
 */
export function findInstalledSdk(cwd: string, read?: ReadText): InstalledSdk | undefined {
  const cached = read ? undefined : cache.get(cwd);
  if (cached !== undefined) return cached ?? undefined;
  const reader = read ?? defaultReader();
  let found: InstalledSdk | undefined;
  if (reader && cwd) {
    let dir = cwd.replace(/[\\/]+$/, "") || "/";
    for (;;) {
      const base = `${dir === "/" ? "" : dir}/node_modules/@anthropic-ai/claude-agent-sdk`;
      const pkg = parse(reader(`${base}/package.json`));
      if (pkg && typeof pkg.version === "string") {
        const manifest = parse(reader(`${base}/manifest.json`));
        const cliVersion = typeof manifest?.version === "string"
          ? manifest.version
          : typeof pkg.claudeCodeVersion === "string"
          ? pkg.claudeCodeVersion
          : undefined;
        if (cliVersion) found = { version: pkg.version, cliVersion, dir: base };
        break;
      }
      const parent = dir.replace(/[\\/][^\\/]*$/, "") || "/";
      if (parent === dir) break;
      dir = parent;
    }
  }
  if (!read) {
    if (cache.size >= 64) cache.clear();
    cache.set(cwd, found ?? null);
  }
  return found;
}

function parse(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Agent SDK installed for `cwd`, else the one installed for `binDir` (the folder of a
 * binary the project installed: its SDK is beside it), else `undefined`.
 */
export function findInstalledSdkNear(
  places: { cwd: string; binDir?: string },
): InstalledSdk | undefined {
  return findInstalledSdk(places.cwd) ??
    (places.binDir ? findInstalledSdk(places.binDir) : undefined);
}
