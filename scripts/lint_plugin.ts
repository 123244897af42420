// The project's own lint rules, which `deno lint` runs (deno.json's `lint.plugins`):
//
// - `claude-mock/function-length`: a function of the library, its entry points or its scripts is
//   at most 80 lines, from its first line to its closing brace; a longer one does several things,
//   and is split by what it does. Tests are not held to it (a test reads as one story).
//
// `deno lint` lists every function over the limit; `scripts/lint_plugin_test.ts` tests the rule
// and holds LONG_FUNCTIONS to what the files measure.

/** The most lines a function may span. */
export const MAX_FUNCTION_LINES = 80;

/**
 * The backlog: each file that still has functions over the limit, with its longest function's
 * length, measured. No function in such a file may grow past that length, and a file leaves the
 * list when its long functions are split (the test fails while an entry says more than the file
 * measures). Empty now: every function is within the limit.
 */
export const LONG_FUNCTIONS: Readonly<Record<string, number>> = {};

const ROOT = new URL("../", import.meta.url).pathname;

/** The path of `path` (absolute, or relative to the repository) relative to the repository. */
export function inRepository(path: string): string {
  return path.startsWith(ROOT) ? path.slice(ROOT.length) : path;
}

/** Whether the rule holds `path` (absolute, or relative to the repository). */
export function heldToLength(path: string): boolean {
  const file = inRepository(path);
  return !/_test\.[mc]?[jt]s$/.test(file) && !file.startsWith("tests/");
}

type Ranged = Deno.lint.Node & { range: [number, number] };

/** The name a function goes by: its own, its method's or its variable's, else `a function`. */
function nameOf(node: Deno.lint.Node): string {
  const named = (id: unknown) =>
    id && typeof id === "object" && "name" in id && typeof id.name === "string"
      ? id.name
      : undefined;
  const own = "id" in node ? named(node.id) : undefined;
  const parent = (node as { parent?: Deno.lint.Node }).parent;
  const outer = parent?.type === "MethodDefinition" || parent?.type === "Property"
    ? named(parent.key)
    : parent?.type === "VariableDeclarator"
    ? named(parent.id)
    : undefined;
  const name = own ?? outer;
  return name ? `\`${name}\`` : "a function";
}

/** The rule, with the backlog it allows (LONG_FUNCTIONS unless given). */
export function functionLength(
  backlog: Readonly<Record<string, number>> = LONG_FUNCTIONS,
): Deno.lint.Rule {
  return {
    create(context) {
      if (!heldToLength(context.filename)) return {};
      const allowed = backlog[inRepository(context.filename)] ?? MAX_FUNCTION_LINES;
      const text = context.sourceCode.text;
      // the offset at which each line starts, for the line of an offset
      const starts = [0];
      for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
      const lineOf = (offset: number) => {
        let lo = 0;
        let hi = starts.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (starts[mid] <= offset) lo = mid;
          else hi = mid - 1;
        }
        return lo + 1;
      };
      const check = (node: Ranged) => {
        const lines = lineOf(node.range[1] - 1) - lineOf(node.range[0]) + 1;
        if (lines <= allowed) return;
        const limit = allowed > MAX_FUNCTION_LINES
          ? `at most ${MAX_FUNCTION_LINES}; this file's backlog allows ${allowed}`
          : `at most ${MAX_FUNCTION_LINES}`;
        context.report({
          node,
          message: `${nameOf(node)} spans ${lines} lines (${limit})`,
          hint: "Split it by what it does: each part a function named after its job",
        });
      };
      return {
        FunctionDeclaration: check,
        FunctionExpression: check,
        ArrowFunctionExpression: check,
      };
    },
  };
}

const plugin: Deno.lint.Plugin = {
  name: "claude-mock",
  rules: { "function-length": functionLength() },
};

export default plugin;
