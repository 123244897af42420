// deno task npm:check [--sdk 0.3.328,0.3.330] [--no-native] [--no-runners] [--keep] — the npm
// package checked as a user installs it: build (scripts/build_npm.ts), publint-style checks of
// npm/ and of the packed tarball (scripts/npm_package_lint.ts), `npm publish --dry-run`, then
// for each Agent SDK version (the one deno.json pins and the latest on npm, never a hard-coded
// one):
// - a fresh Node project that `npm install`s the tarball and that SDK with `--omit=optional`
//   (no native claude binary), runs the node:test suite of npm_test/*.test.mjs (the README's
//   Node tour among it) under Node 20, type-checks npm_test/consumer.ts with tsc
//   (moduleResolution nodenext and bundler) and every declaration of the package with Node's
//   typings alone (npm_test/consumer_node_types.ts), and requires every entry point under
//   Node 22 too (npm_test/commonjs.test.mjs; node@22 from npm when the system has none);
// - three fresh runner projects, node:test (`node --import @x/claude-mock/register --test`,
//   under Node 20 and 22), vitest and jest (ES modules), each testing the unchanged sample app of npm_test/app/ with
//   the tests of npm_test/<runner>/ (vitest in its default and its vmThreads pool): a scenario, a named failure, a cassette of the real CLI,
//   two concurrent tests with their own mocks, a query with no mock.
// Last, a default install (with the native binary) of the pinned SDK runs the SDK tests again.
// npm's cache (~/.npm) makes later runs fast. Run by .ci/run after the Deno tests.

import {
  buildNpm,
  cacheDir,
  listFiles,
  npmTools,
  readRepoConfig,
  run,
  TYPES_NODE_VERSION,
  TYPESCRIPT_VERSION,
} from "./build_npm.ts";
import { inPeerRange, pinnedSdkVersion, SDK, sdkPeerRange } from "./npm_package_json.ts";
import { lintPackage } from "./npm_package_lint.ts";

const ROOT = decodeURIComponent(new URL("..", import.meta.url).pathname).replace(/\/$/, "");
/** The Node major the suite runs under: the oldest the package supports (`engines`). */
const NODE_MAJOR = 20;
/** The Node major that `require()`s every entry point as well. */
const CJS_NODE_MAJOR = 22;
/** The test runners of the runner projects, pinned (vitest 3 with vite 7 installs with npm 10). */
const RUNNERS = {
  node: {},
  vitest: { vitest: "3.2.7", vite: "7.3.8" },
  jest: { jest: "30.5.2", "@jest/globals": "30.5.2" },
} as const;

function flag(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

function log(line: string): void {
  console.log(`npm:check: ${line}`);
}

/** A `node` of `major`: the system's, else `node@<major>` from npm. */
async function nodeBinary(major: number = NODE_MAJOR): Promise<string> {
  const system = await run("node", ["--version"]).catch(() => "");
  if (system.startsWith(`v${major}.`)) return "node";
  log(`system node is ${system.trim() || "missing"}: installing node@${major} from npm`);
  const dir = await npmTools(`node-${major}`, { node: String(major) });
  return `${dir}/node_modules/node/bin/node`;
}

/** The folder of a binary (for PATH), `""` for one found on PATH. */
function binDir(binary: string): string {
  return binary.includes("/") ? binary.slice(0, binary.lastIndexOf("/")) : "";
}

/** Fails with every problem the publint-style rules find in a package folder. */
async function lint(dir: string, what: string): Promise<void> {
  const files = await listFiles(dir);
  const problems = await lintPackage(files, (file) => Deno.readTextFile(`${dir}/${file}`));
  if (problems.length > 0) {
    throw new Error(
      `The npm package (${what}) has ${problems.length} problem(s):\n${
        problems.map((p) => `  ${p.file}: ${p.message}`).join("\n")
      }`,
    );
  }
  log(`${what}: ${files.length} files, publint-style rules pass`);
}

/**
 * `npm publish --dry-run` of the package folder: fails on any warning of npm's (a field it
 * would correct or drop), except that no one is logged in.
 */
async function publishDryRun(dir: string): Promise<void> {
  const out = await new Deno.Command("npm", {
    args: ["publish", "--dry-run", "--loglevel=warn"],
    cwd: dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  const printed = `${text.decode(out.stdout)}${text.decode(out.stderr)}`;
  const warnings = printed.split("\n").filter((l) =>
    /^npm (warn|error|ERR)/i.test(l) && !/requires you to be logged in/.test(l)
  );
  if (out.code !== 0 || warnings.length > 0) {
    throw new Error(
      `npm publish --dry-run is not clean (exit ${out.code}):\n${warnings.join("\n") || printed}`,
    );
  }
  log("npm publish --dry-run: clean");
}

/** `npm pack` into `dir`; returns the tarball's path. */
async function pack(packageDir: string, dir: string): Promise<string> {
  const out = await run("npm", [
    "pack",
    packageDir,
    "--pack-destination",
    dir,
    "--json",
    "--loglevel=error",
  ]);
  const [{ filename }] = JSON.parse(out);
  return `${dir}/${filename}`;
}

/** The versions to test: `--sdk a,b`, else the pinned one and the latest on npm. */
async function sdkVersions(pinned: string): Promise<string[]> {
  const given = flag("--sdk");
  if (given) return given.split(",").map((v) => v.trim()).filter((v) => v !== "");
  const latest = JSON.parse(await run("npm", ["view", SDK, "version", "--json"]));
  if (!inPeerRange(latest, pinned)) {
    throw new Error(
      `The latest ${SDK} on npm is ${latest}, outside the package's peer range ${
        sdkPeerRange(pinned)
      } (from deno.json's pin ${pinned}): move the pin in deno.json, run the tests, and rebuild`,
    );
  }
  return [...new Set([pinned, latest])];
}

/** Runs a command and logs a line; when it fails, prints all it printed and throws. */
async function runShown(
  cmd: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<void> {
  const started = performance.now();
  const out = await new Deno.Command(cmd, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  const printed = `${text.decode(out.stdout)}${text.decode(out.stderr)}`;
  const what = [cmd.split("/").pop(), ...args.map((a) => a.split("/").slice(-2).join("/"))]
    .join(" ");
  // vitest's and jest's summary lines ("Tests  6 passed (6)", "Tests:       6 passed, 6 total")
  const summaries = printed.split("\n").filter((l) => /^\s*Tests:?\s+\d/.test(l))
    .map((l) => l.trim().replace(/\s+/g, " "));
  // a skipped or cancelled test is a test that did not run: not a pass
  if (
    out.code !== 0 || /^# (skipped|todo|cancelled) [1-9]/m.test(printed) ||
    summaries.some((l) => /\b[1-9]\d* (skipped|todo|failed)\b/.test(l))
  ) {
    console.log(printed);
    throw new Error(`npm:check: ${what} failed (exit ${out.code}, in ${options.cwd})`);
  }
  const counts = [
    ...printed.split("\n").filter((l) => /^# (pass|fail|skipped) /.test(l)).map((l) => l.slice(2)),
    ...summaries,
  ];
  log(
    `${what}: ok in ${Math.round(performance.now() - started)} ms${
      counts.length > 0 ? ` (${counts.join(", ")})` : ""
    }`,
  );
}

/** What a fresh project installs and which files of npm_test/ it gets, where. */
interface ProjectSetup {
  tarball: string;
  sdk: string;
  omitOptional: boolean;
  /** More packages (`name` to version). */
  packages?: Record<string, string>;
  /** npm_test/ files (relative) to the project's files (relative). */
  files: Record<string, string>;
}

/** A fresh Node project with the tarball and `sdk@version` installed, and its files copied in. */
async function project(work: string, name: string, setup: ProjectSetup): Promise<string> {
  const dir = `${work}/${name}`;
  await Deno.mkdir(`${dir}/test/__cassettes__`, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/package.json`,
    JSON.stringify({ name: "claude-mock-npm-check", private: true, type: "module" }, null, 2),
  );
  const started = performance.now();
  const packages = Object.entries(setup.packages ?? {}).map(([n, v]) => `${n}@${v}`);
  await run("npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    ...(setup.omitOptional ? ["--omit=optional"] : []),
    setup.tarball,
    `${SDK}@${setup.sdk}`,
    ...packages,
  ], { cwd: dir });
  log(
    `${name}: npm install${setup.omitOptional ? " --omit=optional" : ""} ${SDK}@${setup.sdk}${
      packages.length > 0 ? ` ${packages.join(" ")}` : ""
    } in ${Math.round(performance.now() - started)} ms`,
  );
  for (const [from, to] of Object.entries(setup.files)) {
    await Deno.mkdir(`${dir}/${to.slice(0, to.lastIndexOf("/"))}`, { recursive: true });
    await Deno.copyFile(`${ROOT}/npm_test/${from}`, `${dir}/${to}`);
  }
  // a recording of the real CLI for the cassette tests (as a user keeps tapes beside tests)
  await Deno.copyFile(`${ROOT}/snapshots/hello.jsonl`, `${dir}/test/__cassettes__/hello.jsonl`);
  return dir;
}

/** The node:test suite's files: npm_test/'s own files (not its folders), into test/. */
async function suiteFiles(): Promise<Record<string, string>> {
  const files = (await listFiles(`${ROOT}/npm_test`)).filter((f) => !f.includes("/"));
  return Object.fromEntries(files.map((f) => [f, `test/${f}`]));
}

/** A runner project's files: the sample app into src/, the runner's folder into test/ (configs at the root). */
async function runnerFiles(runner: keyof typeof RUNNERS): Promise<Record<string, string>> {
  const files: Record<string, string> = { "app/assistant.mjs": "src/assistant.mjs" };
  for (const file of await listFiles(`${ROOT}/npm_test/${runner}`)) {
    files[`${runner}/${file}`] = /\.config\.mjs$/.test(file) ? file : `test/${file}`;
  }
  return files;
}

/** How a runner project runs its tests. */
function runnerCommand(
  runner: keyof typeof RUNNERS,
  node: string,
  dir: string,
): { cmd: string; args: string[]; env?: Record<string, string> } {
  switch (runner) {
    case "node":
      return {
        cmd: node,
        args: [
          "--import",
          "@x/claude-mock/register",
          "--test",
          "--test-reporter=tap",
          "test/assistant.test.mjs",
        ],
      };
    case "vitest":
      return { cmd: node, args: [`${dir}/node_modules/vitest/vitest.mjs`, "run"] };
    case "jest":
      return {
        cmd: node,
        args: [`${dir}/node_modules/jest/bin/jest.js`, "--ci"],
        env: { NODE_OPTIONS: "--experimental-vm-modules --no-warnings=ExperimentalWarning" },
      };
  }
}

/** The suite's environment: the chosen node first on PATH, what the tests must expect. */
function suiteEnv(node: string, expect: Record<string, string>): Record<string, string> {
  const env = Deno.env.toObject();
  const dir = binDir(node);
  return {
    ...env,
    ...(dir ? { PATH: `${dir}:${env.PATH ?? ""}` } : {}),
    CI: "1",
    NO_COLOR: "1",
    EXPECTED_NODE_MAJOR: String(NODE_MAJOR),
    ...expect,
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  const config = await readRepoConfig(ROOT);
  const pinned = pinnedSdkVersion(config);
  const node = await nodeBinary();
  log(
    `node ${(await run(node, ["--version"])).trim()}, npm ${
      (await run("npm", ["--version"])).trim()
    }, tools in ${cacheDir()}`,
  );
  const built = await buildNpm({ log });
  await lint(built.dir, "npm/");
  await publishDryRun(built.dir);
  const work = await Deno.makeTempDir({ prefix: "claude-mock-npm-check-" });
  try {
    const tarball = await pack(built.dir, work);
    await Deno.mkdir(`${work}/extracted`);
    await run("tar", ["-xzf", tarball, "-C", `${work}/extracted`]);
    await lint(`${work}/extracted/package`, tarball.split("/").pop()!);
    const versions = await sdkVersions(pinned);
    log(`SDK versions: ${versions.join(", ")} (peer range ${sdkPeerRange(pinned)})`);
    const where: CheckRun = { work, tarball, node, node22: await nodeBinary(CJS_NODE_MAJOR) };
    await checkSuite(versions, where);
    if (!Deno.args.includes("--no-runners")) await checkRunners(versions, where);
    if (!Deno.args.includes("--no-native")) await checkNative(pinned, where);
    log(`all passed in ${Math.round((performance.now() - started) / 1000)} s`);
  } finally {
    if (Deno.args.includes("--keep")) log(`kept ${work}`);
    else await Deno.remove(work, { recursive: true });
  }
}

/** Where the checks run: the scratch folder, the packed package, the Node of the check. */
interface CheckRun {
  work: string;
  tarball: string;
  node: string;
  /** Node 22, for require() and node:test's module hooks. */
  node22: string;
}

/**
 * The suite under each SDK version without the optional native binary: node:test on the
 * check's Node, every entry under require() on Node 22, and the consumer's and the package's
 * declarations through tsc.
 */
async function checkSuite(
  versions: readonly string[],
  { work, tarball, node, node22 }: CheckRun,
): Promise<void> {
  const suite = await suiteFiles();
  const tests = Object.values(suite).filter((f) => f.endsWith(".test.mjs"));
  const tools = { typescript: TYPESCRIPT_VERSION, "@types/node": TYPES_NODE_VERSION };
  for (const version of versions) {
    const dir = await project(work, `sdk-${version}`, {
      tarball,
      sdk: version,
      omitOptional: true,
      packages: tools,
      files: suite,
    });
    const env = suiteEnv(node, { EXPECTED_SDK_VERSION: version, NATIVE_BINARY: "absent" });
    await runShown(node, ["--test", "--test-reporter=tap", ...tests], { cwd: dir, env });
    // every entry point under require() on Node 22 as well
    await runShown(node22, ["--test", "--test-reporter=tap", "test/commonjs.test.mjs"], {
      cwd: dir,
      env: { ...env, EXPECTED_CJS_NODE_MAJOR: String(CJS_NODE_MAJOR) },
    });
    // the consumer with the SDK under both resolutions; the package's own declarations
    // with Node's typings alone (no DOM, skipLibCheck off) once: they do not change with the SDK
    const configs = ["nodenext", "bundler", ...(version === versions[0] ? ["node-types"] : [])];
    for (const config of configs) {
      await runShown(node, [
        `${dir}/node_modules/typescript/bin/tsc`,
        "-p",
        `test/tsconfig.${config}.json`,
      ], { cwd: dir, env });
    }
  }
}

/** The test runners' projects (node:test, vitest, jest) under each SDK version. */
async function checkRunners(
  versions: readonly string[],
  { work, tarball, node, node22 }: CheckRun,
): Promise<void> {
  for (const version of versions) {
    for (const runner of Object.keys(RUNNERS) as (keyof typeof RUNNERS)[]) {
      const dir = await project(work, `${runner}-${version}`, {
        tarball,
        sdk: version,
        // vite needs rollup's native optional package; node:test needs nothing optional
        omitOptional: runner === "node",
        packages: RUNNERS[runner],
        files: await runnerFiles(runner),
      });
      // node:test under Node 22 too: its module hooks and AsyncLocalStorage differ
      for (const binary of runner === "node" ? [node, node22] : [node]) {
        const { cmd, args, env } = runnerCommand(runner, binary, dir);
        // vitest in its vm pool too: its module runner takes the setup file's import of vitest
        // otherwise than the default pool does
        for (const more of runner === "vitest" ? [[], ["--pool=vmThreads"]] : [[]]) {
          await runShown(cmd, [...args, ...more], {
            cwd: dir,
            env: { ...suiteEnv(binary, { EXPECTED_SDK_VERSION: version }), ...env },
          });
        }
      }
    }
  }
}

/** The pinned SDK with its optional native binary installed. */
async function checkNative(pinned: string, { work, tarball, node }: CheckRun): Promise<void> {
  const dir = await project(work, `native-${pinned}`, {
    tarball,
    sdk: pinned,
    omitOptional: false,
    files: await suiteFiles(),
  });
  const env = suiteEnv(node, { EXPECTED_SDK_VERSION: pinned, NATIVE_BINARY: "present" });
  const files = ["test/optional_binary.test.mjs", "test/sdk.test.mjs"];
  await runShown(node, ["--test", "--test-reporter=tap", ...files], { cwd: dir, env });
}

if (import.meta.main) await main();
