// deno task build:npm [--out dir] — the npm package in `npm/`: the same sources compiled by a
// pinned TypeScript (installed with npm into a cache folder; `dnt` cannot be installed here)
// to ESM, one `.js` per source file with its `.d.ts` beside it (`rewriteRelativeImportExtensions`
// turns the `.ts` specifiers into `.js`, `isolatedDeclarations` keeps the declarations to what
// the sources say). The entry points are deno.json's `exports` (each one becomes an `exports`
// entry, `types` first); the fake binary is the bundle `scripts/build_bin.ts` makes for Deno
// (`dist/`, one module to load instead of ~120, with Node's shebang) as the `claude-mock` bin. Test files and
// `testdata/` are never reached (only what the entry points import is compiled). The package
// is verified as users install it by `scripts/npm_check.ts`.

import { buildBin } from "./build_bin.ts";
import { buildNodeBin, NODE_BIN } from "./node_bin.ts";
import {
  cjsEntry,
  compiled,
  ENTRIES_WITHOUT_REQUIRE,
  packageJsonFor,
  type RepoConfig,
} from "./npm_package_json.ts";

/** The TypeScript that compiles the package: the one Deno 2.9.6 checks with. */
export const TYPESCRIPT_VERSION = "6.0.3";
/** The Node typings the sources are compiled against: the oldest Node the package supports. */
export const TYPES_NODE_VERSION = "20.19.43";
/** The npm package's README, from the repository root: the Node page. */
export const NPM_README = "docs/node.md";
/** The fake binary's entry, from the repository root: bundled into `dist/`. */
export const BIN_SOURCE = "src/cli/bin.ts";
/** The package's bin: the Node bundle's loader (scripts/node_bin.ts). */
export const BIN = `dist/${NODE_BIN.loader}`;
/**
 * Modules no entry point imports but the package loads by URL: Node's module hooks
 * (`register()` hands `module.register` their URL; they run on Node's hooks thread).
 */
export const URL_LOADED_SOURCES: readonly string[] = ["src/intercept/_node_hooks.ts"];

const ROOT = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");

/** Options for {@linkcode buildNpm}. */
export interface BuildNpmOptions {
  /** The repository (default: this script's). */
  root?: string;
  /** Where the package goes (default `<root>/npm`); emptied first. */
  out?: string;
  /** Progress lines go here (default: none). */
  log?: (line: string) => void;
}

/** What {@linkcode buildNpm} made. */
export interface BuiltPackage {
  /** The package's folder. */
  dir: string;
  /** Its package.json. */
  packageJson: Record<string, unknown>;
  /** Every file in it, relative, sorted. */
  files: string[];
}

/** Runs a command; throws with what it printed when it fails. */
export async function run(
  cmd: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<string> {
  const out = await new Deno.Command(cmd, {
    args,
    cwd: options.cwd,
    env: options.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  const stdout = text.decode(out.stdout);
  if (out.code !== 0) {
    const printed = `${stdout}${text.decode(out.stderr)}`.trim().split("\n").slice(-40).join("\n");
    throw new Error(
      `${cmd} ${args.join(" ")} failed (exit ${out.code}${
        options.cwd ? `, in ${options.cwd}` : ""
      }):\n${printed}`,
    );
  }
  return stdout;
}

/** The repository's deno.json, as the package needs it. */
export async function readRepoConfig(root: string = ROOT): Promise<RepoConfig> {
  return JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
}

/** A cache folder for build tools (`$XDG_CACHE_HOME` or `~/.cache`). */
export function cacheDir(): string {
  const base = Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/tmp"}/.cache`;
  return `${base}/claude-mock-npm`;
}

/**
 * Installs pinned npm packages into a folder of the cache (once; npm's own cache in `~/.npm`
 * serves later installs); returns the folder, which has `node_modules/`.
 */
export async function npmTools(
  name: string,
  dependencies: Record<string, string>,
): Promise<string> {
  const key = Object.entries(dependencies).map(([n, v]) => `${n}@${v}`).join(" ");
  const dir = `${cacheDir()}/${name}`;
  const stamp = `${dir}/installed.txt`;
  if (await Deno.readTextFile(stamp).catch(() => "") === key) return dir;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/package.json`,
    JSON.stringify({ private: true, dependencies }, null, 2),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir });
  await Deno.writeTextFile(stamp, key);
  return dir;
}

/** The pinned TypeScript and Node typings; returns their folder. */
export function typescriptTools(): Promise<string> {
  return npmTools(`typescript-${TYPESCRIPT_VERSION}`, {
    typescript: TYPESCRIPT_VERSION,
    "@types/node": TYPES_NODE_VERSION,
  });
}

/** Every file under `dir`, relative, sorted. */
export async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${dir}/${prefix}`)) {
    const rel = `${prefix}${entry.name}`;
    if (entry.isDirectory) found.push(...await listFiles(dir, `${rel}/`));
    else found.push(rel);
  }
  return found.sort();
}

/** The entry points' sources (deno.json `exports`), relative to the root, without `./`. */
export function entrySources(config: RepoConfig): string[] {
  const exports = typeof config.exports === "string" ? { ".": config.exports } : config.exports;
  return Object.values(exports).map((file) => file.replace(/^\.\//, ""));
}

/** A declaration file's relative `.ts` specifiers as `.js` (what its `.js` twin imports). */
export function dtsSpecifiersToJs(text: string): string {
  return text.replace(
    /(\b(?:from|import)\s*\(?\s*)(["'])(\.\.?\/[^"'\n]*?)\.ts\2/g,
    (_, head, quote, path) => `${head}${quote}${path}.js${quote}`,
  );
}

/** Builds the npm package; throws (with tsc's diagnostics) if the sources do not compile. */
export async function buildNpm(options: BuildNpmOptions = {}): Promise<BuiltPackage> {
  const root = options.root ?? ROOT;
  const out = options.out ?? `${root}/npm`;
  const log = options.log ?? (() => {});
  const config = await readRepoConfig(root);
  const tools = await typescriptTools();
  log(`typescript ${TYPESCRIPT_VERSION} in ${tools}`);
  await Deno.remove(out, { recursive: true }).catch((e) => {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  });
  await Deno.mkdir(out, { recursive: true });
  const sources = [...entrySources(config), ...URL_LOADED_SOURCES];
  await compile(sources, { root, out, tools });
  log(`compiled ${sources.join(", ")} and what they import`);
  await fixCompiled(out);
  // the binary: for Deno the bundle deno task build:bin makes (dist/bin.js and its chunks, run
  // by installFakeClaude on Deno), for Node a CommonJS bundle of print mode with a loader that keeps V8's
  // code cache (scripts/node_bin.ts), the package's bin
  const chunks = await buildBin(`${out}/dist`);
  const nodeBin = await buildNodeBin(root, `${out}/dist`);
  log(`bundled ${BIN_SOURCE} into dist/ (${chunks.length} files for Deno, ${nodeBin.join(", ")})`);
  await writeBesideCode(config, { root, out });
  const files = await listFiles(out);
  const packageJson = packageJsonFor(config, { bin: BIN, files });
  await Deno.writeTextFile(`${out}/package.json`, `${JSON.stringify(packageJson, null, 2)}\n`);
  const all = await listFiles(out);
  const tests = all.filter((f) => /_test\.(js|d\.ts)$|(^|\/)testdata\//.test(f));
  if (tests.length > 0) {
    throw new Error(`Cannot build the npm package: test files were reached: ${tests.join(", ")}`);
  }
  log(`wrote ${out} (${all.length} files)`);
  return { dir: out, packageJson, files: all };
}

/** Compiles the sources (and what they import) into `out` with tsc, declarations beside. */
async function compile(
  sources: readonly string[],
  { root, out, tools }: { root: string; out: string; tools: string },
): Promise<void> {
  const work = await Deno.makeTempDir({ prefix: "claude-mock-build-" });
  try {
    const tsconfig = `${work}/tsconfig.json`;
    await Deno.writeTextFile(
      tsconfig,
      JSON.stringify(
        {
          compilerOptions: {
            target: "ES2023",
            lib: ["ES2023"],
            module: "ESNext",
            moduleResolution: "bundler",
            rewriteRelativeImportExtensions: true,
            declaration: true,
            isolatedDeclarations: true,
            isolatedModules: true,
            strict: true,
            skipLibCheck: true,
            noEmitOnError: true,
            newLine: "lf",
            rootDir: root,
            outDir: out,
            types: ["node"],
            typeRoots: [`${tools}/node_modules/@types`],
          },
          files: sources.map((file) => `${root}/${file}`),
        },
        null,
        2,
      ),
    );
    const tsc = `${tools}/node_modules/typescript/bin/tsc`;
    await run("node", [tsc, "-p", tsconfig, "--pretty", "false"], { cwd: root }).catch((e) => {
      throw new Error(`Cannot build the npm package: the sources do not compile.\n${e.message}`);
    });
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

/** What tsc leaves to fix: the declarations' `.ts` specifiers, the libraries' shebangs. */
async function fixCompiled(out: string): Promise<void> {
  for (const file of await listFiles(out)) {
    const text = await Deno.readTextFile(`${out}/${file}`);
    if (file.endsWith(".d.ts")) {
      // tsc rewrites the specifiers of the JS, not of the declarations
      const rewritten = dtsSpecifiersToJs(text);
      if (rewritten !== text) await Deno.writeTextFile(`${out}/${file}`, rewritten);
    } else if (file.endsWith(".js") && text.startsWith("#!")) {
      // a Deno shebang on a module Node loads as a library misleads: only the bin keeps one
      await Deno.writeTextFile(`${out}/${file}`, text.slice(text.indexOf("\n") + 1));
    }
  }
}

/** The files beside the code: data files, each entry's CommonJS file, the README, the licence. */
async function writeBesideCode(
  config: RepoConfig,
  { root, out }: { root: string; out: string },
): Promise<void> {
  // the data files beside the sources (the scenario schema), never test data
  for (const file of await listFiles(root, "src/")) {
    if (file.endsWith(".ts") || /(^|\/)testdata\//.test(file)) continue;
    await Deno.mkdir(`${out}/${file.slice(0, file.lastIndexOf("/"))}`, { recursive: true });
    await Deno.copyFile(`${root}/${file}`, `${out}/${file}`);
  }
  // each entry point's CommonJS file (the `require` condition)
  const entries = typeof config.exports === "string" ? { ".": config.exports } : config.exports;
  for (const [subpath, source] of Object.entries(entries)) {
    if (ENTRIES_WITHOUT_REQUIRE.includes(subpath)) continue;
    await Deno.writeTextFile(
      `${out}/${compiled(source, ".cjs").slice(2)}`,
      cjsEntry(config.name, subpath, source),
    );
  }
  // the npm README is the Node page: Node's syntax and commands (docs/node.md)
  const readme = await Deno.readTextFile(`${root}/${NPM_README}`);
  const deno = readme.split("\n").findIndex((line) => /\bDeno\./.test(line));
  if (deno >= 0) {
    throw new Error(
      `Cannot build the npm package: ${NPM_README}:${
        deno + 1
      } uses Deno's API; the npm README is for Node users`,
    );
  }
  await Deno.writeTextFile(`${out}/README.md`, readme);
  await Deno.copyFile(`${root}/LICENSE`, `${out}/LICENSE`);
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--out");
  const built = await buildNpm({
    ...(i >= 0 ? { out: Deno.args[i + 1] } : {}),
    log: (line) => console.log(line),
  });
  console.log(`${built.packageJson.name}@${built.packageJson.version}: ${built.dir}`);
}
