/**
 * What a cassette learns from the test it belongs to, under every runner: the test file (a
 * `Deno.TestContext`'s `origin`, node:test's `t.filePath`, vitest's `context.task.file`, jest's
 * and vitest's `expect.getState().testPath`), the test's name (for a tape named after it), and
 * the runner (for the command that records it). Internal.
 *
 * @module
 */

/** A vitest task, as far as a cassette reads it. */
export interface TaskLike {
  /** The test's (or suite's) name. */
  name?: string;
  /** The file task (vitest: `task.file.filepath`). */
  file?: { filepath?: string };
  /** The enclosing suite (the file, at the top). */
  suite?: TaskLike;
  /** A file task's path. */
  filepath?: string;
}

/** The test a cassette belongs to, from any runner (see `CassetteTest`). */
export interface TestLike {
  name?: string;
  origin?: string;
  filePath?: string;
  fullName?: string;
  task?: TaskLike;
  testPath?: string;
  currentTestName?: string;
}

/** The runner of a test. */
export type Runner = "deno" | "node" | "vitest" | "jest";

interface ExpectLike {
  getState?: () => { testPath?: string; currentTestName?: string } | undefined;
}

function env(): Record<string, string | undefined> {
  if ((globalThis as { Deno?: unknown }).Deno !== undefined) return {};
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env ?? {};
}

/** The runner's own `expect.getState()` (jest's global, vitest's with globals), if any. */
function expectState(): { testPath?: string; currentTestName?: string } | undefined {
  const expect = (globalThis as { expect?: ExpectLike }).expect;
  try {
    return typeof expect?.getState === "function" ? expect.getState() : undefined;
  } catch {
    return undefined;
  }
}

/** The runner the test runs under. */
export function runnerOf(test: TestLike): Runner {
  if (test.task !== undefined) return "vitest";
  if (test.origin !== undefined) return "deno";
  if (env().VITEST !== undefined) return "vitest";
  if (env().JEST_WORKER_ID !== undefined || test.testPath !== undefined) return "jest";
  if (test.filePath !== undefined) return "node";
  return (globalThis as { Deno?: unknown }).Deno !== undefined ? "deno" : "node";
}

/** Whether a path lies inside a `node_modules` folder. */
export function insideNodeModules(path: string): boolean {
  return /(^|[\\/])node_modules([\\/]|$)/.test(path);
}

/**
 * The test file: the context's own (`filePath`, `origin`, `task.file`, `testPath`), else the
 * runner's `expect.getState().testPath`, else the script Node runs (`node --test` runs each
 * file in its own process) unless it is a runner's own file in `node_modules`; `""` if none.
 */
export function testFileOf(test: TestLike): string {
  if (test.filePath) return test.filePath;
  if (test.origin?.startsWith("file:")) return decodeURIComponent(new URL(test.origin).pathname);
  const task = test.task?.file?.filepath ?? fileTask(test.task)?.filepath;
  if (task) return task;
  if (test.testPath) return test.testPath;
  const state = expectState()?.testPath;
  if (state) return state;
  const deno = (globalThis as { Deno?: unknown }).Deno;
  const proc = (globalThis as { process?: { argv?: string[] } }).process;
  const script = deno === undefined ? proc?.argv?.[1] : undefined;
  return script && /\.[cm]?[jt]sx?$/.test(script) && !insideNodeModules(script) ? script : "";
}

function fileTask(task: TaskLike | undefined): TaskLike | undefined {
  for (let t = task; t; t = t.suite) if (t.filepath) return t;
  return undefined;
}

/** The test's full name (suites first), or `""`. */
export function testNameOf(test: TestLike): string {
  if (test.task) {
    const names: string[] = [];
    for (let t: TaskLike | undefined = test.task; t && !t.filepath; t = t.suite) {
      if (t.name) names.unshift(t.name);
    }
    if (names.length > 0) return names.join(" ");
  }
  return test.fullName ?? test.currentTestName ?? expectTestName(test) ?? test.name ?? "";
}

function expectTestName(test: TestLike): string | undefined {
  // the runner's current test, when the context is not one (jest passes no context)
  return test.name === undefined && test.testPath === undefined
    ? expectState()?.currentTestName
    : undefined;
}

/**
 * A tape name made of a test's name: each run of characters a name cannot hold becomes one
 * `-` ("says hello > twice" is "says-hello-twice"); `""` when nothing is left.
 */
export function tapeNameOf(testName: string): string {
  return testName.replace(/[^\w.@+-]+/g, "-").replace(/^[-.]+|-+$/g, "").replace(/\.{2,}/g, ".");
}

/**
 * The command that runs `file` again recording its cassettes, for `runner`; under Node with
 * the flags that preload modules (`--import @x/claude-mock/register`: without it the run that
 * records would fail at its first `mockClaude()`).
 */
export function recordCommandOf(
  runner: Runner,
  file: string,
  nodeFlags: readonly string[] = nodePreloadFlags(),
): string {
  const shown = file ? quoteArg(file) : "<test file>";
  switch (runner) {
    case "vitest":
      return `CLAUDE_MOCK_RECORD=1 npx vitest run ${shown}`;
    case "jest":
      return `CLAUDE_MOCK_RECORD=1 NODE_OPTIONS=--experimental-vm-modules npx jest ${shown}`;
    case "node":
      return `CLAUDE_MOCK_RECORD=1 node ${
        nodeFlags.map((f) => `${quoteArg(f)} `).join("")
      }--test ${shown}`;
    default:
      // Deno tells a module nothing of its own flags (an import map's --config above all)
      return `deno test -A ${shown} -- --update, with the --config and other flags the tests ran with`;
  }
}

/** The flags of `execArgv` (this Node process's by default) that preload modules. */
export function nodePreloadFlags(
  execArgv: readonly string[] | undefined = (globalThis as {
      Deno?: unknown;
      process?: { execArgv?: string[] };
    }).Deno === undefined
    ? (globalThis as { process?: { execArgv?: string[] } }).process?.execArgv
    : undefined,
): string[] {
  const kept: string[] = [];
  const args = execArgv ?? [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (/^(--import|--require|-r|--loader|--experimental-loader)=/.test(arg)) kept.push(arg);
    else if (/^(--import|--require|-r|--loader|--experimental-loader)$/.test(arg)) {
      if (i + 1 < args.length) kept.push(arg, args[++i]);
    }
  }
  return kept;
}

/** `arg` as a POSIX shell word. */
function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/** How a test ended, as its runner says it once the test's body is over. */
export interface TestOutcome {
  /** Whether the test failed. */
  failed: boolean;
  /** Its error, when the runner gives it. */
  error?: unknown;
}

/**
 * Asks the runner to call `listener` with the test's outcome once its body is over, where the
 * runner can say it: node:test (`t.after`, then `t.passed` and `t.error`, Node 20.13 and
 * later) and vitest (`context.onTestFinished`, then `task.result.state`). The listener's
 * promise is awaited by the runner. Returns false where it cannot (Deno's context, jest's
 * `expect.getState()`, a plain `{ name }`): the outcome is then not known.
 */
export function onTestOutcome(
  test: unknown,
  listener: (outcome: TestOutcome) => Promise<void>,
): boolean {
  if (typeof test !== "object" || test === null) return false;
  const t = test as {
    after?: unknown;
    passed?: unknown;
    error?: unknown;
    onTestFinished?: unknown;
    task?: { result?: { state?: unknown; errors?: unknown[] } };
  };
  if (typeof t.after === "function" && typeof t.passed === "boolean") {
    (t.after as (fn: () => Promise<void>) => void).call(test, () =>
      listener({
        failed: t.passed !== true || (t.error !== null && t.error !== undefined),
        ...(t.error !== null && t.error !== undefined ? { error: t.error } : {}),
      }));
    return true;
  }
  if (typeof t.onTestFinished === "function") {
    (t.onTestFinished as (fn: (arg: unknown) => Promise<void>) => void).call(test, (arg) => {
      // vitest 2 and 3 pass the context ({ task }), vitest 1 the task's result
      const given = arg as
        | { task?: typeof t.task; state?: unknown; errors?: unknown[] }
        | undefined;
      const result = given?.task?.result ?? (given?.state !== undefined ? given : t.task?.result);
      const error = result?.errors?.[0];
      return listener({
        failed: result?.state === "fail",
        ...(error !== undefined ? { error } : {}),
      });
    });
    return true;
  }
  return false;
}
