// deno run -A scripts/sdk_kinds.ts [path/to/sdk.d.ts] — regenerates src/cassette/_sdk_kinds.ts,
// the table of frame kinds the installed Agent SDK's types know (what `lintTape` checks tapes
// against), from the SDK's `sdk.d.ts`: the `type`/`subtype` pairs of `StdoutMessage` (all the
// CLI may write) and the `subtype`s of the control requests (`SDKControlRequestInner`).
// `scripts/sdk_kinds_test.ts` checks that regenerating gives the committed file.

/** Where the generated table lives, from the repository root. */
export const SDK_KINDS_FILE = "src/cassette/_sdk_kinds.ts";

/** A parsed `declare type` body: the text after `=`, up to its `;`. */
type Definitions = Map<string, string>;

/** The `declare type NAME = …;` definitions of a `.d.ts` text, comments removed. */
function definitions(dts: string): Definitions {
  const text = dts.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const defs: Definitions = new Map();
  const start = /(?:^|\n)\s*(?:export\s+)?declare\s+type\s+(\w+)(?:<[^=]*>)?\s*=/g;
  for (let m = start.exec(text); m; m = start.exec(text)) {
    let depth = 0;
    let i = start.lastIndex;
    let quote = "";
    for (; i < text.length; i++) {
      const c = text[i];
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = "";
      } else if (c === "'" || c === '"' || c === "`") quote = c;
      else if ("{[(<".includes(c)) depth++;
      else if ("}])>".includes(c) && text[i - 1] !== "=") depth--;
      else if (c === ";" && depth === 0) break;
    }
    defs.set(m[1], text.slice(start.lastIndex, i).trim());
  }
  return defs;
}

/** Splits `text` at top-level occurrences of `sep` (`|` or `&`). */
function splitTop(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === "'" || c === '"' || c === "`") quote = c;
    else if ("{[(<".includes(c)) depth++;
    else if ("}])>".includes(c) && text[i - 1] !== "=") depth--;
    else if (c === sep && depth === 0) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

/** The string literals of a type like `'a' | 'b'`, or `undefined` when it is not only those. */
function literals(type: string): string[] | undefined {
  const parts = splitTop(type, "|");
  const values = parts.map((p) => /^'([^']*)'$|^"([^"]*)"$/.exec(p)).map((m) => m?.[1] ?? m?.[2]);
  return values.every((v) => v !== undefined) ? values as string[] : undefined;
}

/** The top-level properties named `names` of an object type literal `{ … }`, as type texts. */
function properties(object: string, names: readonly string[]): Map<string, string> {
  const body = object.trim().replace(/^\{/, "").replace(/\}$/, "");
  const found = new Map<string, string>();
  for (const member of splitTop(body, ";").flatMap((m) => splitTop(m, ","))) {
    const m = /^(\w+)\??\s*:\s*([\s\S]*)$/.exec(member.trim());
    if (m && names.includes(m[1])) found.set(m[1], m[2].trim());
  }
  return found;
}

/** A member of a union: its `type` and `subtype` literals (absent when not a literal). */
interface Kind {
  type?: string[];
  subtype?: string[];
}

/** The kinds of type expression `expr`, following named types through `defs`. */
function kindsOf(expr: string, defs: Definitions, seen: Set<string> = new Set()): Kind[] {
  const union = splitTop(expr, "|");
  if (union.length > 1) return union.flatMap((part) => kindsOf(part, defs, seen));
  const parts = splitTop(expr, "&");
  if (parts.length > 1) {
    const merged: Kind = {};
    for (const part of parts) {
      for (const kind of kindsOf(part, defs, seen)) {
        if (kind.type) merged.type = kind.type;
        if (kind.subtype) merged.subtype = kind.subtype;
      }
    }
    return [merged];
  }
  const one = expr.trim().replace(/^\(([\s\S]*)\)$/, "$1").trim();
  if (one.startsWith("{")) {
    const props = properties(one, ["type", "subtype"]);
    const type = props.has("type") ? literals(props.get("type")!) : undefined;
    const subtype = props.has("subtype") ? literals(props.get("subtype")!) : undefined;
    return [{ ...(type ? { type } : {}), ...(subtype ? { subtype } : {}) }];
  }
  const name = one.replace(/^\w+\./, "");
  const def = defs.get(name);
  if (def === undefined) {
    throw new SyntaxError(`Cannot read sdk.d.ts: type ${name} is not declared`);
  }
  if (seen.has(name)) return [];
  return kindsOf(def, defs, new Set([...seen, name]));
}

/** The generated module's text for the `sdk.d.ts` text of SDK `version`. */
export function sdkKindsSource(dts: string, version: string): string {
  const defs = definitions(dts);
  for (const name of ["StdoutMessage", "SDKControlRequestInner"]) {
    if (!defs.has(name)) throw new SyntaxError(`Cannot read sdk.d.ts: no type ${name}`);
  }
  const messages = new Map<string, Set<string> | null>();
  for (const kind of kindsOf(defs.get("StdoutMessage")!, defs)) {
    for (const type of kind.type ?? []) {
      const known = messages.get(type);
      if (!kind.subtype || known === null) messages.set(type, null);
      else messages.set(type, new Set([...(known ?? []), ...kind.subtype]));
    }
  }
  const controls = new Set(
    kindsOf(defs.get("SDKControlRequestInner")!, defs).flatMap((k) => k.subtype ?? []),
  );
  const list = (values: Iterable<string>, indent: string) =>
    [...values].sort().map((v) => `${indent}${JSON.stringify(v)},\n`).join("");
  const types = [...messages.keys()].sort().map((type) => {
    const subtypes = messages.get(type);
    return subtypes ? `  ${type}: [\n${list(subtypes, "    ")}  ],\n` : `  ${type}: null,\n`;
  }).join("");
  return `// Generated by scripts/sdk_kinds.ts from @anthropic-ai/claude-agent-sdk ${version} sdk.d.ts.
// Do not edit: run \`deno run -A scripts/sdk_kinds.ts\` after changing the SDK's version.

/** The SDK version this table was generated from. */
export const SDK_KINDS_VERSION = ${JSON.stringify(version)};

/**
 * What the CLI may write (the SDK's \`StdoutMessage\`): each \`type\` with its \`subtype\`s, or
 * \`null\` when the type is not told apart by a subtype.
 */
export const CLI_MESSAGE_KINDS: Readonly<Record<string, readonly string[] | null>> = {
${types}};

/** The \`subtype\`s of control requests, either way (\`SDKControlRequestInner\`). */
export const CONTROL_REQUEST_SUBTYPES: readonly string[] = [
${list(controls, "  ")}];
`;
}

/** The installed SDK's `sdk.d.ts` path and version (through this project's import map). */
export async function installedSdk(): Promise<{ path: string; version: string }> {
  const main = new URL(import.meta.resolve("@anthropic-ai/claude-agent-sdk"));
  const pkg = JSON.parse(await Deno.readTextFile(new URL("./package.json", main)));
  return { path: decodeURIComponent(new URL("./sdk.d.ts", main).pathname), version: pkg.version };
}

if (import.meta.main) {
  const sdk = await installedSdk();
  const path = Deno.args[0] ?? sdk.path;
  const out = new URL(`../${SDK_KINDS_FILE}`, import.meta.url);
  await Deno.writeTextFile(out, sdkKindsSource(await Deno.readTextFile(path), sdk.version));
  console.log(`wrote ${SDK_KINDS_FILE} from ${path}`);
}
