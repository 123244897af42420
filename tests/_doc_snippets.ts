// The docs' code blocks as tests (tests/docs_snippets_test.ts): finding the blocks of a Markdown
// page, turning a TypeScript block's `// prints: …` comments into checks of what its
// console.log calls print, and a shell block's `# prints: …` comments into checks of what its
// commands write to stdout. `deno check --doc` type-checks the TypeScript blocks; this runs
// them with console.log captured, so a comment that lies fails a test.

/** A fenced code block of a Markdown page. */
export interface Block {
  /** The page, relative to the repository. */
  file: string;
  /** The 1-based line of the opening fence. */
  line: number;
  /** The language (`ts`, `sh`, `json`, …; "" for none). */
  lang: string;
  /** The rest of the info string: `ignore (why)`, … */
  info: string;
  /** The block's text, de-indented, without its fences. */
  text: string;
}

/** The fenced blocks of a page, in order (indented ones too). */
export function blocksOf(markdown: string, file: string): Block[] {
  const blocks: Block[] = [];
  for (const m of markdown.matchAll(/^( *)```(\w*)([^\n]*)\n([\s\S]*?)^\1```$/gm)) {
    const indent = m[1].length;
    blocks.push({
      file,
      line: markdown.slice(0, m.index).split("\n").length,
      lang: m[2],
      info: m[3].trim(),
      text: m[4].replace(/\n$/, "").split("\n").map((l) => l.slice(indent)).join("\n"),
    });
  }
  return blocks;
}

/** Whether a block is marked `ignore` (Deno's word: `deno check --doc` skips it). */
export function isIgnored(block: Block): boolean {
  return /^ignore\b/.test(block.info);
}

/** Why an ignored block is not run: the text in parentheses after `ignore`, if any. */
export function ignoreReason(block: Block): string | undefined {
  return /^ignore\s+\((.+)\)$/.exec(block.info)?.[1];
}

/** The repository file a block is an excerpt of: a first line `// <path>` or `# <path>`. */
export function excerptOf(block: Block): { path: string; excerpt: string } | undefined {
  const [first, ...rest] = block.text.split("\n");
  const path = /^(?:\/\/|#) ((?:[\w.-]+\/)*[\w.-]+\.\w+)$/.exec(first)?.[1];
  return path === undefined ? undefined : { path, excerpt: rest.join("\n").trimEnd() };
}

/** One call of console.log (or one shell command) and what its comments say it prints. */
export interface PrintSite {
  /** The 0-based line of the block where the call (or command) starts. */
  line: number;
  /** The call's source text on that line, for messages. */
  source: string;
  /** The printed lines the comments promise, in order (`…` stands for any text). */
  expected: string[];
}

/** A TypeScript block made ready to run: console.log calls routed to `__print(site, …)`. */
export interface Instrumented {
  code: string;
  sites: PrintSite[];
}

const LOG = "console.log(";
const PRINTS_TS = /\/\/ prints: (.*)$/;

/**
 * Finds each `console.log(` of a TypeScript block and the `// prints: …` comments that belong
 * to it: a comment at the end of a line or on a line of its own belongs to the nearest call
 * above it (or on its line). Each comment is one printed line; a call that runs several times
 * or prints several lines has a comment per line. Every call must have a comment and every
 * comment a call; more than one call on a line is refused (which would the comment mean?).
 * The calls become `__print(<site>, …)`, `Deno.test(` becomes `__test(` (the harness runs
 * the tests a block declares), and `import.meta.url` the page's URL (as in `deno test --doc`,
 * relative URLs resolve beside the page).
 */
export function instrument(code: string, pageUrl: string): Instrumented {
  const lines = code.split("\n");
  const sites: PrintSite[] = [];
  const siteOfLine = new Map<number, number>();
  lines.forEach((text, i) => {
    const first = text.indexOf(LOG);
    if (first < 0) return;
    if (text.indexOf(LOG, first + 1) >= 0) {
      throw new SyntaxError(`line ${i + 1}: two console.log calls on one line`);
    }
    siteOfLine.set(i, sites.length);
    sites.push({ line: i, source: text.trim(), expected: [] });
  });
  lines.forEach((text, i) => {
    const comment = PRINTS_TS.exec(text);
    if (!comment) return;
    const owner = [...siteOfLine.keys()].filter((l) => l <= i).at(-1);
    if (owner === undefined) {
      throw new SyntaxError(`line ${i + 1}: a "// prints:" comment with no console.log above it`);
    }
    sites[siteOfLine.get(owner)!].expected.push(comment[1]);
  });
  for (const site of sites) {
    if (site.expected.length === 0) {
      throw new SyntaxError(
        `line ${site.line + 1}: console.log without a "// prints: …" comment (${site.source})`,
      );
    }
  }
  const out = lines.map((text, i) => {
    let line = text.replaceAll("import.meta.url", JSON.stringify(pageUrl));
    line = line.replaceAll("Deno.test(", "__test(");
    const site = siteOfLine.get(i);
    return site === undefined ? line : line.replace(LOG, `__print(${site}, `);
  });
  return { code: out.join("\n"), sites };
}

/** What console.log prints for these arguments (Deno's formatting, no colours). */
export function format(args: unknown[]): string {
  return args.map((a) => typeof a === "string" ? a : Deno.inspect(a)).join(" ");
}

/** Whether a printed line is what a comment says: exact, where `…` stands for any text. */
export function matches(actual: string, expected: string): boolean {
  const pattern = expected.split("…").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${pattern.join(".*")}$`).test(actual);
}

/** What a site printed against what its comments say: undefined when they agree. */
export function mismatch(site: PrintSite, printed: string[], offset = 0): string | undefined {
  const actual = printed.flatMap((text) => text.split("\n"));
  const same = actual.length === site.expected.length &&
    actual.every((line, i) => matches(line, site.expected[i]));
  if (same) return undefined;
  const show = (lines: string[]) =>
    lines.length === 0 ? "  (nothing)" : lines.map((l) => `  ${l}`).join("\n");
  return `line ${offset + site.line + 1}: ${site.source}\nprinted:\n${
    show(actual)
  }\nbut its comments ` +
    `say:\n${show(site.expected)}`;
}

/** Runs an instrumented block as a fresh module and returns what each site printed. */
export async function runInstrumented(block: Instrumented): Promise<string[][]> {
  const printed: string[][] = block.sites.map(() => []);
  const tests: { name: string; fn: () => unknown }[] = [];
  const g = globalThis as Record<string, unknown>;
  g.__docPrint = (site: number, ...args: unknown[]) => printed[site].push(format(args));
  g.__docTest = (name: string, fn: () => unknown) => tests.push({ name, fn });
  const code = "const __print = globalThis.__docPrint, __test = globalThis.__docTest;\n" +
    block.code;
  try {
    await import(`data:application/typescript;base64,${base64(code)}`);
    for (const test of tests) await test.fn();
  } finally {
    delete g.__docPrint;
    delete g.__docTest;
  }
  return printed;
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** A shell command of a block, with what its comments say it prints and how it exits. */
export interface ShellCommand extends PrintSite {
  /** The command, continuation lines joined. */
  command: string;
  /** The exit code a `# exits: N` comment promises (default 0). */
  exits: number;
}

const PRINTS_SH = /(?:^|\s)# prints: (.*)$/;
const EXITS_SH = /(?:^|\s)# exits: (\d+)$/;

/**
 * The commands of a shell block: one per line (a line ending in `\` continues on the next),
 * `# prints: …` comments after a command (at the end of its line or on lines of their own)
 * say what it writes to stdout, line by line, and `# exits: N` its exit code. Other comment
 * lines are prose.
 */
export function shellCommands(text: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    const printed = PRINTS_SH.exec(line);
    const exits = EXITS_SH.exec(line);
    const comment = printed ?? exits;
    const code = (comment ? line.slice(0, comment.index) : line).trim();
    if (code === "" || code.startsWith("#")) {
      if (comment && commands.length === 0) {
        throw new SyntaxError(`line ${i + 1}: a comment about output with no command above it`);
      }
      if (printed) commands.at(-1)!.expected.push(printed[1]);
      if (exits) commands.at(-1)!.exits = Number(exits[1]);
      continue;
    }
    const start = i;
    let command = code;
    let last = { printed, exits };
    while (command.endsWith("\\") && i + 1 < lines.length) {
      line = lines[++i];
      last = { printed: PRINTS_SH.exec(line), exits: EXITS_SH.exec(line) };
      const comment = last.printed ?? last.exits;
      const more = (comment ? line.slice(0, comment.index) : line).trim();
      command = `${command.slice(0, -1).trimEnd()} ${more}`;
    }
    commands.push({
      line: start,
      source: code,
      command,
      expected: last.printed ? [last.printed[1]] : [],
      exits: last.exits ? Number(last.exits[1]) : 0,
    });
  }
  return commands;
}
