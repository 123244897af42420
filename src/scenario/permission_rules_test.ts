import assert from "node:assert/strict";
import { decidePermission, prefixRule, ruleMatches } from "./permission_rules.ts";

const CWD = "/home/user/project";

Deno.test("ruleMatches: a file rule's path as the CLI reads it, under the working directory", () => {
  const notes = { file_path: `${CWD}/notes.txt` };
  assert.equal(ruleMatches("Edit(./notes.txt)", "Edit", notes, { cwd: CWD }), true);
  assert.equal(ruleMatches("Edit(notes.txt)", "Edit", notes, { cwd: CWD }), true);
  assert.equal(
    ruleMatches("Edit(src/**)", "Edit", { file_path: `${CWD}/src/a/b.ts` }, { cwd: CWD }),
    true,
  );
  assert.equal(ruleMatches("Edit(./other.txt)", "Edit", notes, { cwd: CWD }), false);
  assert.equal(
    ruleMatches("Read(//etc/passwd)", "Read", { file_path: "/etc/passwd" }, { cwd: CWD }),
    true,
  );
  // an absolute pattern and no cwd: compared as written, as before
  assert.equal(ruleMatches(`Edit(${CWD}/notes.txt)`, "Edit", notes), true);
  assert.equal(ruleMatches("Edit(./notes.txt)", "Edit", notes), false);
  // a Bash command is never a path
  assert.equal(ruleMatches("Bash(./run.sh)", "Bash", { command: "./run.sh" }, { cwd: CWD }), true);
});

Deno.test("decidePermission: a deny rule with a relative path denies the file under cwd", () => {
  const verdict = decidePermission("Read", { file_path: `${CWD}/notes.txt` }, {
    mode: "default",
    sources: [{ rules: { deny: ["Read(./notes.txt)"] }, source: "cliArg" }],
    cwd: CWD,
  });
  assert.equal(verdict.behavior, "deny");
  assert.equal(verdict.rule, "Read(./notes.txt)");
});

Deno.test("prefixRule: a command and its subcommand with ' *', else the command", () => {
  assert.equal(prefixRule("npm test"), "npm test *");
  assert.equal(prefixRule("npm run lint --fix"), "npm run *");
  assert.equal(prefixRule("  cargo   build "), "cargo build *");
  assert.equal(prefixRule("rm -rf build"), "rm -rf build");
  assert.equal(prefixRule("python script.py"), "python script.py");
  assert.equal(prefixRule("make"), "make");
});

Deno.test("a suggested 'cmd sub *' rule covers the command itself and its longer forms", () => {
  assert.equal(ruleMatches("Bash(npm test *)", "Bash", { command: "npm test" }), true);
  assert.equal(ruleMatches("Bash(npm test *)", "Bash", { command: "npm test -- --watch" }), true);
  assert.equal(ruleMatches("Bash(npm test *)", "Bash", { command: "npm testing" }), false);
  assert.equal(ruleMatches("Bash(npm run *)", "Bash", { command: "npm run lint" }), true);
});

Deno.test("a WebFetch domain rule covers the url's host", () => {
  const url = (u: string) => ({ url: u, prompt: "x" });
  assert.equal(
    ruleMatches("WebFetch(domain:example.com)", "WebFetch", url("https://example.com/a")),
    true,
  );
  assert.equal(
    ruleMatches("WebFetch(domain:example.com)", "WebFetch", url("https://other.com")),
    false,
  );
  assert.equal(ruleMatches("WebFetch(domain:example.com)", "WebFetch", url("not a url")), false);
});
