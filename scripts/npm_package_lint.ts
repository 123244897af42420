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
  const regexAllowed = () => {
    const last = tokens.at(-1);
    if (!last) return true;
    if (last.kind === "id") return REGEX_AFTER.has(last.value);
    if (last.kind === "str") return false;
    return !/^[)\]}]$/.test(last.value) && !/^[0-9]/.test(last.value);
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
      let j = i + 1;
      let value = "";
      while (j < src.length && src[j] !== c && src[j] !== "\n") {
        if (src[j] === "\\") {
          value += src[j + 1] ?? "";
          j += 2;
        } else value += src[j++];
      }
      push("str", value);
      advance(j + 1);
    } else if (c === "`") {
      advance(i + 1);
      template();
    } else if (c === "}" && braces.at(-1) === "${") {
      braces.pop();
      advance(i + 1);
      template();
    } else if (c === "/" && regexAllowed()) {
      let j = i + 1;
      let inClass = false;
      while (j < src.length && src[j] !== "\n" && (inClass || src[j] !== "/")) {
        if (src[j] === "\\") j++;
        else if (src[j] === "[") inClass = true;
        else if (src[j] === "]") inClass = false;
        j++;
      }
      j++;
      while (j < src.length && /[a-z]/i.test(src[j])) j++;
      push("other", "/…/");
      advance(j);
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
  const problem = (file: string, message: string) => problems.push({ file, message });
  if (!has.has("package.json")) return [{ file: "package.json", message: "missing" }];
  const pkg = JSON.parse(await read("package.json"));
  const target = (where: string, value: unknown) => {
    if (typeof value !== "string") return;
    if (!value.startsWith("./")) problem("package.json", `${where}: "${value}" must start with ./`);
    else if (!has.has(normalize(value))) {
      problem("package.json", `${where}: "${value}" is not in the package`);
    }
  };
  if (pkg.type !== "module") problem("package.json", `"type" must be "module"`);
  if (typeof pkg.engines?.node !== "string") problem("package.json", `"engines.node" is missing`);
  if (!pkg.license) problem("package.json", `"license" is missing`);
  if (!pkg.exports || typeof pkg.exports !== "object") {
    problem("package.json", `"exports" is missing`);
  }
  for (const [subpath, value] of Object.entries(pkg.exports ?? {})) {
    if (typeof value === "string") {
      target(`exports["${subpath}"]`, value);
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
      target(`exports["${subpath}"].${condition}`, path);
      if (condition === "types" && typeof path === "string" && !path.endsWith(".d.ts")) {
        problem("package.json", `exports["${subpath}"].types: "${path}" is not a .d.ts file`);
      }
    }
  }
  target("main", pkg.main);
  target("types", pkg.types);
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
  const peers = new Set(Object.keys(pkg.peerDependencies ?? {}));
  const deps = new Set(Object.keys(pkg.dependencies ?? {}));
  for (const file of files) {
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
      continue;
    }
    if (!isDts && !file.endsWith(".js")) continue;
    const text = await read(file);
    for (const specifier of importSpecifiers(text)) {
      if (specifier.startsWith(".")) {
        if (/\.[mc]?tsx?$/.test(specifier) && !specifier.endsWith(".d.ts")) {
          problem(file, `imports "${specifier}": a .ts specifier (Node cannot load it)`);
          continue;
        }
        if (!/\.(js|json)$/.test(specifier)) {
          problem(file, `imports "${specifier}" without a .js extension (Node needs one)`);
          continue;
        }
        const resolved = resolveFrom(file, specifier);
        const wanted = isDts ? resolved.replace(/\.js$/, ".d.ts") : resolved;
        if (!has.has(wanted)) problem(file, `imports "${specifier}": ${wanted} is not shipped`);
        continue;
      }
      const name = specifier.startsWith("@")
        ? specifier.split("/").slice(0, 2).join("/")
        : specifier.split("/")[0];
      if (NODE_BUILTIN.test(specifier) || deps.has(name)) continue;
      if (isDts && peers.has(name)) continue;
      problem(
        file,
        `imports "${specifier}", which is neither a node: built-in nor a dependency${
          peers.has(name) ? " (a peer: only types may use it)" : ""
        }`,
      );
    }
    if (!isDts) {
      for (const where of denoUses(text)) {
        problem(file, `uses Deno's API outside a runtime check (${where})`);
      }
    }
  }
  return problems;
}
