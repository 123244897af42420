// publint-style checks of a built or packed npm package folder (publint itself is not used: it
// would be one more download, and these are the rules this package needs): every `exports`
// target exists, `types` comes first and resolves, every relative import of the JS and the
// declarations resolves to a shipped file (no `.ts` specifier in JS), JS imports nothing but
// Node built-ins (zero runtime dependencies), declarations nothing but built-ins and peers, the
// bin has a Node shebang, `files` entries exist, what an entry's CommonJS file requires ships,
// no test files or TypeScript sources ship, and
// no JS calls Deno's API outside a runtime check.

/** A problem found, with the file it is about. */
export interface LintProblem {
  /** The package-relative file (or `package.json`). */
  file: string;
  /** What is wrong. */
  message: string;
}

/** A token of JavaScript: an identifier or keyword, a string literal, or anything else. */
interface Token {
  kind: "id" | "str" | "other";
  value: string;
  line: number;
}

const REGEX_AFTER = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

/**
 * The tokens of JavaScript or declaration source, comments left out: enough to find imports
 * and identifiers without being fooled by strings, template literals, regular expressions
 * or comments (a `/` starts a regular expression where a value may start).
 */
export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  const braces: string[] = [];
  let line = 1;
  let i = 0;
  const push = (kind: Token["kind"], value: string) => tokens.push({ kind, value, line });
  const advance = (to: number) => {
    for (; i < to; i++) if (src[i] === "\n") line++;
  };
  /** Reads template text from `i` to the closing backtick or a `${`. */
  const template = () => {
    let j = i;
    while (j < src.length && src[j] !== "`" && !(src[j] === "$" && src[j + 1] === "{")) {
      j += src[j] === "\\" ? 2 : 1;
    }
    push("other", "`…`");
    if (src[j] === "`") advance(j + 1);
    else {
      braces.push("${");
      advance(j + 2);
    }
  };
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      advance(i + 1);
    } else if (c === "/" && src[i + 1] === "/") {
      const end = src.indexOf("\n", i);
      advance(end < 0 ? src.length : end);
    } else if (c === "/" && src[i + 1] === "*") {
      const end = src.indexOf("*/", i + 2);
      advance(end < 0 ? src.length : end + 2);
    } else if (c === "'" || c === '"') {
      const { value, end } = quoted(src, i);
      push("str", value);
      advance(end + 1);
    } else if (c === "`") {
      advance(i + 1);
      template();
    } else if (c === "}" && braces.at(-1) === "${") {
      braces.pop();
      advance(i + 1);
      template();
    } else if (c === "/" && regexAllowed(tokens.at(-1))) {
      push("other", "/…/");
      advance(regexEnd(src, i));
    } else if (/[A-Za-z_$\u0080-\uffff]/.test(c)) {
      const m = /^[\w$\u0080-\uffff]+/.exec(src.slice(i, i + 256))!;
      push("id", m[0]);
      advance(i + m[0].length);
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9][\w.]*/.exec(src.slice(i, i + 64))!;
      push("other", m[0]);
      advance(i + m[0].length);
    } else {
      if (c === "{") braces.push("{");
      else if (c === "}") braces.pop();
      push("other", c);
      advance(i + 1);
    }
  }
  return tokens;
}

/** Whether a `/` after token `last` starts a regular expression (else it divides). */
function regexAllowed(last: Token | undefined): boolean {
  if (!last) return true;
  if (last.kind === "id") return REGEX_AFTER.has(last.value);
  if (last.kind === "str") return false;
  return !/^[)\]}]$/.test(last.value) && !/^[0-9]/.test(last.value);
}

/** The string literal opening at `start`: its value (escapes read) and its closing quote's index. */
function quoted(src: string, start: number): { value: string; end: number } {
  const quote = src[start];
  let j = start + 1;
  let value = "";
  while (j < src.length && src[j] !== quote && src[j] !== "\n") {
    if (src[j] === "\\") {
      value += src[j + 1] ?? "";
      j += 2;
    } else value += src[j++];
  }
  return { value, end: j };
}

/** Where the regular expression literal opening at `start` ends, its flags included. */
function regexEnd(src: string, start: number): number {
  let j = start + 1;
  let inClass = false;
  while (j < src.length && src[j] !== "\n" && (inClass || src[j] !== "/")) {
    if (src[j] === "\\") j++;
    else if (src[j] === "[") inClass = true;
    else if (src[j] === "]") inClass = false;
    j++;
  }
  j++;
  while (j < src.length && /[a-z]/i.test(src[j])) j++;
  return j;
}

/** The specifiers a JS or declaration file imports: static, dynamic, re-exports, `import()` types. */
export function importSpecifiers(text: string): string[] {
  const tokens = tokenize(text);
  const found: string[] = [];
  tokens.forEach((t, k) => {
    const next = tokens[k + 1];
    if (t.kind !== "id" || !next) return;
    if ((t.value === "from" || t.value === "import") && next.kind === "str") {
      if (tokens[k - 1]?.value !== ".") found.push(next.value);
    } else if (t.value === "import" && next.value === "(" && tokens[k + 2]?.kind === "str") {
      found.push(tokens[k + 2].value);
    }
  });
  return found;
}

/** Where JS uses `Deno` as a variable (not `globalThis.Deno`): `line N`. */
export function denoUses(text: string): string[] {
  const tokens = tokenize(text);
  return tokens
    .filter((t, k) => t.kind === "id" && t.value === "Deno" && tokens[k - 1]?.value !== ".")
    .map((t) => `line ${t.line}`);
}

const NODE_BUILTIN = /^node:/;

function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

function resolveFrom(file: string, specifier: string): string {
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
  return normalize(`${dir}/${specifier}`);
}

/** Checks a package folder, given its files (package-relative) and a reader for their text. */
export async function lintPackage(
  files: readonly string[],
  read: (file: string) => Promise<string>,
): Promise<LintProblem[]> {
  const problems: LintProblem[] = [];
  const has = new Set(files);
  if (!has.has("package.json")) return [{ file: "package.json", message: "missing" }];
  const pkg = JSON.parse(await read("package.json"));
  const context: Package = {
    files,
    has,
    read,
    pkg,
    peers: new Set(Object.keys(pkg.peerDependencies ?? {})),
    deps: new Set(Object.keys(pkg.dependencies ?? {})),
    problem: (file, message) => void problems.push({ file, message }),
  };
  lintManifest(context);
  await lintBins(context);
  for (const file of files) await lintFile(file, context);
  return problems;
}

/** The package being checked, and how a problem is reported. */
interface Package {
  files: readonly string[];
  has: ReadonlySet<string>;
  read: (file: string) => Promise<string>;
  // deno-lint-ignore no-explicit-any
  pkg: any;
  peers: ReadonlySet<string>;
  deps: ReadonlySet<string>;
  problem(file: string, message: string): void;
}

/** A path of package.json (`where`) is a ./ path to a shipped file. */
function checkTarget({ has, problem }: Package, where: string, value: unknown): void {
  if (typeof value !== "string") return;
  if (!value.startsWith("./")) problem("package.json", `${where}: "${value}" must start with ./`);
  else if (!has.has(normalize(value))) {
    problem("package.json", `${where}: "${value}" is not in the package`);
  }
}

/** package.json: a module, engines, a licence, and exports with types first, default last. */
function lintManifest(context: Package): void {
  const { pkg, problem } = context;
  if (pkg.type !== "module") problem("package.json", `"type" must be "module"`);
  if (typeof pkg.engines?.node !== "string") problem("package.json", `"engines.node" is missing`);
  if (!pkg.license) problem("package.json", `"license" is missing`);
  if (!pkg.exports || typeof pkg.exports !== "object") {
    problem("package.json", `"exports" is missing`);
  }
  for (const [subpath, value] of Object.entries(pkg.exports ?? {})) {
    if (typeof value === "string") {
      checkTarget(context, `exports["${subpath}"]`, value);
      if (value.endsWith(".js")) {
        problem("package.json", `exports["${subpath}"] has no "types" condition`);
      }
      continue;
    }
    const conditions = Object.keys(value as object);
    if (conditions[0] !== "types") {
      problem("package.json", `exports["${subpath}"]: "types" must be the first condition`);
    }
    if (conditions.at(-1) !== "default") {
      problem("package.json", `exports["${subpath}"]: "default" must be the last condition`);
    }
    for (const [condition, path] of Object.entries(value as Record<string, unknown>)) {
      checkTarget(context, `exports["${subpath}"].${condition}`, path);
      if (condition === "types" && typeof path === "string" && !path.endsWith(".d.ts")) {
        problem("package.json", `exports["${subpath}"].types: "${path}" is not a .d.ts file`);
      }
    }
  }
  checkTarget(context, "main", pkg.main);
  checkTarget(context, "types", pkg.types);
}

/** The bins ship, with a Node shebang; every `files` entry matches something. */
async function lintBins({ files, has, read, pkg, problem }: Package): Promise<void> {
  for (const [name, path] of Object.entries(pkg.bin ?? {})) {
    // npm 11's publish removes a bin written "./x" ("script name ... was invalid")
    if (typeof path === "string" && path.startsWith("./")) {
      problem("package.json", `bin["${name}"]: "${path}" must not start with ./ (npm drops it)`);
    } else if (!has.has(normalize(String(path)))) {
      problem("package.json", `bin["${name}"]: "${path}" is not in the package`);
    }
    const file = normalize(String(path));
    if (has.has(file) && !(await read(file)).startsWith("#!/usr/bin/env node\n")) {
      problem(file, `bin "${name}" does not start with "#!/usr/bin/env node"`);
    }
  }
  for (const entry of pkg.files ?? []) {
    const path = normalize(String(entry));
    if (!has.has(path) && !files.some((f) => f.startsWith(`${path}/`))) {
      problem("package.json", `files: "${entry}" matches nothing`);
    }
  }
}

/**
 * A shipped file: no test or TypeScript source; what a CommonJS file requires ships; the JS and
 * declarations import shipped files, built-ins and dependencies (declarations: peers too); no
 * JS calls Deno's API outside a runtime check.
 */
async function lintFile(file: string, context: Package): Promise<void> {
  const { has, read, problem } = context;
  if (/(^|\/)testdata\/|_test\.(js|d\.ts)$/.test(file)) problem(file, "test file shipped");
  if (file.endsWith(".ts") && !file.endsWith(".d.ts")) problem(file, "TypeScript source shipped");
  const isDts = file.endsWith(".d.ts");
  if (file.endsWith(".cjs")) {
    // an entry's CommonJS file: what it requires must ship
    for (const [, specifier] of (await read(file)).matchAll(/\brequire\("([^"]+)"\)/g)) {
      if (specifier.startsWith(".") && !has.has(resolveFrom(file, specifier))) {
        problem(file, `requires "${specifier}": ${resolveFrom(file, specifier)} is not shipped`);
      }
    }
    return;
  }
  if (!isDts && !file.endsWith(".js")) return;
  const text = await read(file);
  for (const specifier of importSpecifiers(text)) {
    const message = importProblem(specifier, { file, isDts, context });
    if (message) problem(file, message);
  }
  if (!isDts) {
    for (const where of denoUses(text)) {
      problem(file, `uses Deno's API outside a runtime check (${where})`);
    }
  }
}

/** What is wrong with an import of `file` (undefined when nothing is). */
function importProblem(
  specifier: string,
  { file, isDts, context }: { file: string; isDts: boolean; context: Package },
): string | undefined {
  if (specifier.startsWith(".")) {
    if (/\.[mc]?tsx?$/.test(specifier) && !specifier.endsWith(".d.ts")) {
      return `imports "${specifier}": a .ts specifier (Node cannot load it)`;
    }
    if (!/\.(js|json)$/.test(specifier)) {
      return `imports "${specifier}" without a .js extension (Node needs one)`;
    }
    const resolved = resolveFrom(file, specifier);
    const wanted = isDts ? resolved.replace(/\.js$/, ".d.ts") : resolved;
    return context.has.has(wanted) ? undefined : `imports "${specifier}": ${wanted} is not shipped`;
  }
  const name = specifier.startsWith("@")
    ? specifier.split("/").slice(0, 2).join("/")
    : specifier.split("/")[0];
  if (NODE_BUILTIN.test(specifier) || context.deps.has(name)) return undefined;
  if (isDts && context.peers.has(name)) return undefined;
  return `imports "${specifier}", which is neither a node: built-in nor a dependency${
    context.peers.has(name) ? " (a peer: only types may use it)" : ""
  }`;
}
