import assert from "node:assert/strict";
import { isReadOnlyCommand, subcommandsNeedingApproval } from "./read_only_command.ts";
import { decidePermission } from "./permission_rules.ts";

const CWD = "/home/user/project";

Deno.test("isReadOnlyCommand: every command as the real CLI judged it (v3xx_p_bash_readonly)", async () => {
  const recorded = JSON.parse(
    await Deno.readTextFile(
      new URL("../../tests/fixtures/real/print/v3xx_p_bash_readonly.json", import.meta.url),
    ),
  ) as { commands: Array<{ command: string; ran: boolean }> };
  assert.ok(recorded.commands.length > 100);
  const wrong = recorded.commands
    .filter(({ command, ran }) => isReadOnlyCommand(command, CWD) !== ran)
    .map(({ command, ran }) => `${command} (the real CLI ${ran ? "ran it" : "asked"})`);
  assert.deepEqual(wrong, []);
  // and the permission decision the tool flow takes from it
  for (const { command, ran } of recorded.commands) {
    const verdict = decidePermission("Bash", { command }, {
      mode: "default",
      sources: [],
      cwd: CWD,
    });
    assert.equal(verdict.behavior, ran ? "allow" : "ask", command);
  }
});

Deno.test("isReadOnlyCommand: quoting, joins and what is never read-only", () => {
  assert.equal(isReadOnlyCommand("grep 'a|b' notes.txt"), true); // a quoted | is no pipe
  assert.equal(isReadOnlyCommand("echo 'x; rm -rf /'"), true);
  assert.equal(isReadOnlyCommand("ls || rm x"), false);
  assert.equal(isReadOnlyCommand("ls &"), false);
  assert.equal(isReadOnlyCommand('echo "$(rm x)"'), false);
  assert.equal(isReadOnlyCommand("cat < notes.txt"), false);
  // a descriptor duplicated onto another writes no file (bash_edge_results, 2.1.328 and 2.1.332)
  assert.equal(isReadOnlyCommand("echo oops >&2"), true);
  assert.equal(isReadOnlyCommand("echo oops 1>&2 && ls"), true);
  assert.equal(isReadOnlyCommand("ls x 2>&1 | head -1"), true);
  assert.equal(isReadOnlyCommand("echo oops > out.txt"), false);
  assert.equal(isReadOnlyCommand("echo oops >&out.txt"), false);
  assert.equal(isReadOnlyCommand("echo oops >&2x"), false);
  assert.equal(isReadOnlyCommand("echo 'unterminated"), false);
  assert.equal(isReadOnlyCommand(""), false);
  assert.equal(isReadOnlyCommand("git -c core.pager=x log"), false);
  assert.equal(isReadOnlyCommand("git remote add origin x"), false);
  assert.equal(isReadOnlyCommand("git stash list"), true);
  assert.equal(isReadOnlyCommand("gh pr view 12"), true);
  assert.equal(isReadOnlyCommand("gh pr merge 12"), false);
  assert.equal(isReadOnlyCommand("date -s 2020-01-01"), false);
  // paths only count with a working directory to check them against
  assert.equal(isReadOnlyCommand("cat /etc/hostname"), true);
  assert.equal(isReadOnlyCommand("cat ../secret", CWD), false);
  assert.equal(isReadOnlyCommand(`cat ${CWD}/notes.txt`, CWD), true);
});

Deno.test("subcommandsNeedingApproval: the parts of a compound command that are not read-only (bash_compound)", () => {
  assert.deepEqual(subcommandsNeedingApproval("echo out; echo err >&2; exit 3"), ["exit 3"]);
  assert.deepEqual(subcommandsNeedingApproval("touch a.txt && rm -f b.txt"), [
    "touch a.txt",
    "rm -f b.txt",
  ]);
  assert.deepEqual(subcommandsNeedingApproval("cat notes.txt | wc -l"), []);
  assert.equal(subcommandsNeedingApproval("npm run build"), undefined);
  assert.equal(subcommandsNeedingApproval("echo $(rm x); ls"), undefined);
});
