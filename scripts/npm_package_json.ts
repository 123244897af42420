// The npm package's package.json, from deno.json: the entry points (deno.json `exports`, each
// with `types` first), the bin, the engines, and the Agent SDK as an optional peer with the
// range that is tested (from the version deno.json pins up to the next minor; CI tests the
// pinned version and the latest on npm, and fails when the latest leaves the range).

/** What the build reads from deno.json. */
export interface RepoConfig {
  /** The package's name (the same on JSR and npm). */
  name: string;
  /** Its version. */
  version: string;
  /** Its license (SPDX). */
  license?: string;
  /** The entry points: `"."` and subpaths to `./file.ts`. */
  exports: string | Record<string, string>;
  /** The import map (the tests' pinned npm packages). */
  imports?: Record<string, string>;
}

/** The Agent SDK's npm name. */
export const SDK = "@anthropic-ai/claude-agent-sdk";
/** The oldest Node the package supports. */
export const NODE_ENGINE = ">=20";

/** The SDK version deno.json pins (`npm:@anthropic-ai/claude-agent-sdk@X.Y.Z`). */
export function pinnedSdkVersion(config: RepoConfig): string {
  const spec = config.imports?.[SDK];
  const version = spec?.startsWith(`npm:${SDK}@`) ? spec.slice(`npm:${SDK}@`.length) : undefined;
  if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
    throw new TypeError(
      `Cannot read the pinned Agent SDK: deno.json's imports must map "${SDK}" to "npm:${SDK}@X.Y.Z" (found ${
        JSON.stringify(spec)
      })`,
    );
  }
  return version;
}

/** The peer range for a tested version: that version up to the next minor (`^0.3.328`). */
export function sdkPeerRange(version: string): string {
  return `^${version}`;
}

/** Whether `version` is inside {@linkcode sdkPeerRange}`(pinned)`. */
export function inPeerRange(version: string, pinned: string): boolean {
  const [a, b, c] = pinned.split(".").map(Number);
  const [x, y, z] = version.split(/[.+-]/).map(Number);
  if (/-/.test(version)) return false; // prereleases are outside a plain caret range
  if (a > 0) return x === a && (y > b || (y === b && z >= c));
  if (b > 0) return x === 0 && y === b && z >= c;
  return x === 0 && y === 0 && z === c;
}

/** The package file a source compiles to (`./mod.ts` to `./mod.js`, or `.d.ts`). */
export function compiled(source: string, ext: ".js" | ".d.ts"): string {
  return `./${source.replace(/^\.\//, "").replace(/\.ts$/, ext)}`;
}

/** The package.json of the npm package, given the built files and the bin's file. */
export function packageJsonFor(
  config: RepoConfig,
  built: { bin: string; files: readonly string[] },
): Record<string, unknown> {
  const entries = typeof config.exports === "string" ? { ".": config.exports } : config.exports;
  const exports: Record<string, unknown> = {};
  const topFiles: string[] = [];
  for (const [subpath, source] of Object.entries(entries)) {
    if (!source.endsWith(".ts")) {
      throw new TypeError(
        `Cannot build the npm package: deno.json export "${subpath}" is not a .ts file (${source})`,
      );
    }
    exports[subpath] = { types: compiled(source, ".d.ts"), default: compiled(source, ".js") };
    const top = source.replace(/^\.\//, "").split("/")[0];
    topFiles.push(
      ...(top.endsWith(".ts") ? [compiled(source, ".js"), compiled(source, ".d.ts")] : [`${top}/`]),
    );
  }
  // schemas shipped beside the sources, for editors (`"$schema"` in a scenario file)
  for (const file of built.files.filter((f) => f.endsWith(".schema.json"))) {
    exports[`./${file.split("/").pop()}`] = `./${file}`;
  }
  exports["./package.json"] = "./package.json";
  const main = exports["."] as { types: string; default: string } | undefined;
  const pinned = pinnedSdkVersion(config);
  return {
    name: config.name,
    version: config.version,
    description:
      "A test double for the Claude Code CLI: apps built on the Claude Agent SDK run against it offline, deterministically and in milliseconds.",
    keywords: ["claude", "claude-code", "claude-agent-sdk", "mock", "test-double", "testing"],
    license: config.license ?? "MIT",
    type: "module",
    ...(main ? { main: main.default, types: main.types } : {}),
    exports,
    bin: { "claude-mock": `./${built.bin}` },
    files: [...new Set([...topFiles.map((f) => f.replace(/^\.\//, "")), "src/"])],
    engines: { node: NODE_ENGINE },
    peerDependencies: { [SDK]: sdkPeerRange(pinned) },
    peerDependenciesMeta: { [SDK]: { optional: true } },
  };
}
