/**
 * Which shell commands the real CLI runs without asking: the read-only ones. Taken from what
 * the real CLI 2.1.328 and 2.1.332 ran and denied with no one to ask: commands joined by `&&`, `||`, `;`
 * or `|` are read-only when each part is; a part is read-only by its command name and, for
 * some, its flags; any substitution, output redirection or variable assignment, and any path
 * outside the working directory, needs approval.
 *
 * @module
 */

/** Commands read-only with any arguments (paths inside the working directory). */
const ANY_ARGS: ReadonlySet<string> = new Set([
  "cal",
  "uptime",
  "cat",
  "head",
  "tail",
  "wc",
  "stat",
  "strings",
  "hexdump",
  "od",
  "nl",
  "id",
  "uname",
  "free",
  "df",
  "du",
  "locale",
  "groups",
  "nproc",
  "basename",
  "dirname",
  "realpath",
  "cut",
  "paste",
  "tr",
  "column",
  "tac",
  "rev",
  "fold",
  "expand",
  "unexpand",
  "fmt",
  "comm",
  "cmp",
  "numfmt",
  "readlink",
  "diff",
  "true",
  "false",
  "sleep",
  "type",
  "expr",
  "seq",
  "tsort",
  "pr",
  "ls",
  "echo",
  "printf",
  "test",
  "[",
  "jq",
  "cd",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "file",
  "tree",
  "which",
  "lsof",
  "pgrep",
  "ps",
  "base64",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "tput",
  "ss",
  "netstat",
  "man",
  "help",
  "fd",
  "fdfind",
  "hostname",
  "date",
]);

/** Commands read-only only as these exact words. */
const EXACT: ReadonlySet<string> = new Set([
  "pwd",
  "whoami",
  "alias",
  "history",
  "arch",
  "ip addr",
  "node -v",
  "node --version",
  "python --version",
  "python3 --version",
  "claude -h",
  "claude --help",
  "docker ps",
  "docker images",
]);

/** Commands read-only with flags only (no operand): `uniq -c`, not `uniq notes.txt`. */
const FLAGS_ONLY: ReadonlySet<string> = new Set(["uniq"]);

/** Flags that make an otherwise read-only command write (`sort -o`, `sed -i`, `date -s`). */
const WRITING_FLAGS: Readonly<Record<string, RegExp>> = {
  sort: /^(-[A-Za-z]*o|--output)/,
  sed: /^(-[A-Za-z]*i|--in-place)/,
  date: /^(-[A-Za-z]*s|--set)/,
};

/** `find` actions that run commands or change files. */
const FIND_ACTIONS = /^-(delete|rm|exec|execdir|ok|okdir|fprint0?|fls|fprintf|files0-from)$/;

/** git subcommands (one or two words) that only read. */
const GIT_READS: ReadonlySet<string> = new Set([
  "status",
  "log",
  "diff",
  "show",
  "shortlog",
  "reflog",
  "blame",
  "ls-files",
  "ls-remote",
  "rev-parse",
  "rev-list",
  "describe",
  "cat-file",
  "for-each-ref",
  "grep",
  "merge-base",
  "remote show",
  "config --get",
  "stash list",
  "stash show",
  "worktree list",
]);

/** git subcommands that only read when given no operand (`git branch`, not `git branch x`). */
const GIT_LISTS: ReadonlySet<string> = new Set(["branch", "tag", "remote"]);

/** gh subcommands that only read. */
const GH_READS =
  /^(pr (view|list|diff|checks|status)|issue (view|list|status)|repo view|run (list|view)|auth status|release (list|view)|workflow (list|view)|label list|search \w+)$/;

/** Commands that name files or folders they read: their paths must lie inside the cwd. */
const PATH_ARGS: ReadonlySet<string> = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "stat",
  "strings",
  "hexdump",
  "od",
  "nl",
  "du",
  "cut",
  "paste",
  "column",
  "tac",
  "rev",
  "fold",
  "comm",
  "cmp",
  "diff",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "file",
  "tree",
  "find",
  "sort",
  "sed",
  "cd",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "base64",
  "jq",
]);

/**
 * Whether a shell command only reads, as the real CLI judges it before running it without
 * asking (`ls -la`, `git status`, `cat a.txt | head -1`); with `cwd`, a path it reads must lie
 * inside that folder (`cat /etc/hostname` needs approval).
 *
 * @example Read-only commands
 * ```ts
 * import { isReadOnlyCommand } from "./read_only_command.ts";
 * console.log(isReadOnlyCommand("echo hello && ls -la"), isReadOnlyCommand("rm -rf build")); // true false
 * console.log(isReadOnlyCommand("cat /etc/hostname", "/home/user/project")); // false
 * ```
 */
export function isReadOnlyCommand(command: string, cwd?: string): boolean {
  let text = command.trim();
  if (text.endsWith(" 2>&1")) text = text.slice(0, -5).trim();
  const parts = splitCommands(text);
  if (parts === undefined || parts.length === 0) return false;
  return parts.every((words) => isReadOnlyPart(words, cwd));
}

/**
 * The commands of a compound command line (`ls && npm run build`) that are not read-only, as
 * the real CLI asks about them (its `subcommandResults`, 2.1.328 to 2.1.332); `undefined` for
 * a single command, or one it cannot split.
 *
 * @example The part that needs approval
 * ```ts
 * import { subcommandsNeedingApproval } from "./read_only_command.ts";
 * console.log(subcommandsNeedingApproval("echo out; echo err >&2; exit 3")); // [ "exit 3" ]
 * console.log(subcommandsNeedingApproval("npm test")); // undefined
 * ```
 */
export function subcommandsNeedingApproval(command: string, cwd?: string): string[] | undefined {
  const parts = splitCommands(command.trim());
  if (parts === undefined || parts.length < 2) return undefined;
  return parts.filter((words) => !isReadOnlyPart(words, cwd)).map((words) => words.join(" "));
}

/**
 * The words of each command of a command line (split on `&&`, `||`, `;`, `|` outside
 * quotes), or `undefined` when it has what is never read-only: a substitution (`$(…)`,
 * backticks, `<(…)`), a redirection other than a descriptor's duplication (`2>&1`, `>&2`), a
 * background `&`, a newline.
 */
function splitCommands(text: string): string[][] | undefined {
  const parts: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  const endWord = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  const endPart = () => {
    endWord();
    if (words.length === 0) return false;
    parts.push(words);
    words = [];
    return true;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (quote === '"' && (c === "`" || (c === "$" && text[i + 1] === "("))) return undefined;
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
      continue;
    }
    if (c === "`" || c === "\n" || c === "\\") return undefined;
    if (c === "$" && text[i + 1] === "(") return undefined;
    if (c === "<" || c === ">") {
      // a descriptor duplicated onto another (`2>&1`, `>&2`, `1>&2`) writes no file: the real
      // CLI runs `echo oops >&2` unasked (2.1.328, 2.1.332)
      const dup = c === ">" && /^>&\d(?![^\s;&|])/.exec(text.slice(i));
      if (dup && (word === undefined || /^\d$/.test(word))) {
        word = undefined;
        i += 2;
        continue;
      }
      return undefined;
    }
    if (c === "&" || c === "|" || c === ";") {
      const doubled = (c === "&" || c === "|") && text[i + 1] === c;
      if (c === "&" && !doubled) return undefined;
      if (!endPart()) return undefined;
      if (doubled) i++;
      continue;
    }
    if (c === " " || c === "\t") {
      endWord();
      continue;
    }
    word = (word ?? "") + c;
  }
  if (quote) return undefined;
  if (!endPart()) return undefined;
  return parts;
}

function isReadOnlyPart(words: string[], cwd: string | undefined): boolean {
  const [name, ...args] = words;
  // a variable assignment before the command (`FOO=1 ls`), or `env`: needs approval
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(name)) return false;
  if (EXACT.has(words.join(" "))) return true;
  if (name === "history") return args.length === 1 && /^\d+$/.test(args[0]);
  if (name === "git") return isGitRead(args);
  if (name === "gh") return GH_READS.test(args.slice(0, 2).join(" "));
  if (name === "docker") return args[0] === "logs" || args[0] === "inspect";
  if (FLAGS_ONLY.has(name)) return args.every((a) => a.startsWith("-"));
  if (name === "find" && args.some((a) => FIND_ACTIONS.test(a))) return false;
  if (!ANY_ARGS.has(name) && name !== "find" && name !== "sort" && name !== "sed") return false;
  const writing = WRITING_FLAGS[name];
  if (writing && args.some((a) => writing.test(a))) return false;
  if (name === "hostname" && args.length > 0) return false;
  if (cwd !== undefined && PATH_ARGS.has(name)) {
    return args.every((a) => a.startsWith("-") || insideDir(a, cwd));
  }
  return true;
}

function isGitRead(args: string[]): boolean {
  // global options before the subcommand (`-c`, `--exec-path`) can run anything
  if (args.length === 0 || args[0].startsWith("-")) return false;
  const [sub, ...rest] = args;
  if (GIT_LISTS.has(sub)) return rest.every((a) => a.startsWith("-"));
  return GIT_READS.has(sub) || GIT_READS.has(`${sub} ${rest[0] ?? ""}`);
}

/** Whether a path argument lies inside `cwd` (a relative path without `..` does). */
function insideDir(path: string, cwd: string): boolean {
  if (path.startsWith("~")) return false;
  if (!path.startsWith("/")) return !path.split("/").includes("..");
  const base = cwd.replace(/\/+$/, "");
  return path === base || path.startsWith(`${base}/`);
}
