import assert from "node:assert/strict";
import { decidePermission, ruleMatches } from "./permission_rules.ts";

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
