// deno task npm:check [--sdk 0.3.328,0.3.330] [--no-native] [--keep] — the npm package checked
// as a user installs it: build (scripts/build_npm.ts), publint-style checks of npm/ and of the
// packed tarball (scripts/npm_package_lint.ts), then for each Agent SDK version (the one
// deno.json pins and the latest on npm, never a hard-coded one) a fresh Node project that
// `npm install`s the tarball and that SDK with `--omit=optional` (no native claude binary),
// runs the node:test suite of npm_test/ (the README's Node tour among it) under Node 20, and
// type-checks npm_test/consumer.ts with tsc (moduleResolution nodenext and bundler) and every
// declaration of the package with Node's typings alone (npm_test/consumer_node_types.ts). Last, a
// default install (with the native binary) of the pinned SDK runs the SDK tests again.
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

function flag(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

function log(line: string): void {
  console.log(`npm:check: ${line}`);
}

/** A `node` of the major the suite needs: the system's, else `node@<major>` from npm. */
async function nodeBinary(): Promise<string> {
  const system = await run("node", ["--version"]).catch(() => "");
  if (system.startsWith(`v${NODE_MAJOR}.`)) return "node";
  log(`system node is ${system.trim() || "missing"}: installing node@${NODE_MAJOR} from npm`);
  const dir = await npmTools(`node-${NODE_MAJOR}`, { node: String(NODE_MAJOR) });
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
  // a skipped or cancelled test is a test that did not run: not a pass
  if (out.code !== 0 || /^# (skipped|todo|cancelled) [1-9]/m.test(printed)) {
    console.log(printed);
    throw new Error(`npm:check: ${what} failed (exit ${out.code}, in ${options.cwd})`);
  }
  const counts = printed.split("\n").filter((l) => /^# (pass|fail|skipped) /.test(l))
    .map((l) => l.slice(2));
  log(
    `${what}: ok in ${Math.round(performance.now() - started)} ms${
      counts.length > 0 ? ` (${counts.join(", ")})` : ""
    }`,
  );
}

/** A fresh Node project with the tarball and `sdk@version` installed, and the suite copied in. */
async function project(
  work: string,
  name: string,
  install: { tarball: string; sdk: string; omitOptional: boolean },
): Promise<string> {
  const dir = `${work}/${name}`;
  await Deno.mkdir(`${dir}/test/__cassettes__`, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/package.json`,
    JSON.stringify({ name: "claude-mock-npm-check", private: true, type: "module" }, null, 2),
  );
  const started = performance.now();
  await run("npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    ...(install.omitOptional ? ["--omit=optional"] : []),
    install.tarball,
    `${SDK}@${install.sdk}`,
    `typescript@${TYPESCRIPT_VERSION}`,
    `@types/node@${TYPES_NODE_VERSION}`,
  ], { cwd: dir });
  log(
    `${name}: npm install${
      install.omitOptional ? " --omit=optional" : ""
    } ${SDK}@${install.sdk} in ${Math.round(performance.now() - started)} ms`,
  );
  for (const file of await listFiles(`${ROOT}/npm_test`)) {
    await Deno.copyFile(`${ROOT}/npm_test/${file}`, `${dir}/test/${file}`);
  }
  // a recording of the real CLI for the cassette test (as a user keeps tapes beside tests)
  await Deno.copyFile(`${ROOT}/snapshots/hello.jsonl`, `${dir}/test/__cassettes__/hello.jsonl`);
  return dir;
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
  const work = await Deno.makeTempDir({ prefix: "claude-mock-npm-check-" });
  try {
    const tarball = await pack(built.dir, work);
    await Deno.mkdir(`${work}/extracted`);
    await run("tar", ["-xzf", tarball, "-C", `${work}/extracted`]);
    await lint(`${work}/extracted/package`, tarball.split("/").pop()!);
    const versions = await sdkVersions(pinned);
    log(`SDK versions: ${versions.join(", ")} (peer range ${sdkPeerRange(pinned)})`);
    const tests = (await listFiles(`${ROOT}/npm_test`))
      .filter((f) => f.endsWith(".test.mjs"))
      .map((f) => `test/${f}`);
    for (const version of versions) {
      const dir = await project(work, `sdk-${version}`, {
        tarball,
        sdk: version,
        omitOptional: true,
      });
      const env = suiteEnv(node, { EXPECTED_SDK_VERSION: version, NATIVE_BINARY: "absent" });
      await runShown(node, ["--test", "--test-reporter=tap", ...tests], { cwd: dir, env });
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
    if (!Deno.args.includes("--no-native")) {
      const dir = await project(work, `native-${pinned}`, {
        tarball,
        sdk: pinned,
        omitOptional: false,
      });
      const env = suiteEnv(node, { EXPECTED_SDK_VERSION: pinned, NATIVE_BINARY: "present" });
      const files = ["test/optional_binary.test.mjs", "test/sdk.test.mjs"];
      await runShown(node, ["--test", "--test-reporter=tap", ...files], { cwd: dir, env });
    }
    log(`all passed in ${Math.round((performance.now() - started) / 1000)} s`);
  } finally {
    if (Deno.args.includes("--keep")) log(`kept ${work}`);
    else await Deno.remove(work, { recursive: true });
  }
}

if (import.meta.main) await main();
