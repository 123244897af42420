import assert from "node:assert/strict";
import {
  commandInfo,
  expandBody,
  expandCommand,
  parseCommandFile,
  readCustomCommands,
} from "./custom_commands.ts";
import type { HookCommandRunner } from "./command_hooks.ts";

// what the real CLI 2.1.332 sent the model (tests/fixtures/real/FINDINGS_hooks.md)
Deno.test("expandBody: $ARGUMENTS, $N and $ARGUMENTS[N] from 0, shell-quoted words, missing ones kept", () => {
  assert.equal(
    expandBody(
      "A=$ARGUMENTS|0=$0|1=$1|2=$2|a0=$ARGUMENTS[0]|a1=$ARGUMENTS[1]|a3=$ARGUMENTS[3]\n",
      'Ann "Bob Smith" Cy',
    ),
    'A=Ann "Bob Smith" Cy|0=Ann|1=Bob Smith|2=Cy|a0=Ann|a1=Bob Smith|a3=$ARGUMENTS[3]\n',
  );
  assert.equal(
    expandBody("Say hello to $ARGUMENTS. First $1, then $2.\n", "Ann Bob"),
    "Say hello to Ann Bob. First Bob, then $2.\n",
  );
  // no placeholder: the arguments appended
  assert.equal(
    expandBody("No args body\n", "hello there"),
    "No args body\n\n\nARGUMENTS: hello there",
  );
  assert.equal(expandBody("No args body\n", ""), "No args body\n");
});

Deno.test("parseCommandFile: frontmatter fields, the first line as description, a YAML list hint", () => {
  const fast = parseCommandFile(
    "fast",
    '---\nmodel: claude-haiku-5-5\ndescription: "Fast: quick"\nargument-hint: [name, age]\n---\nFast body\n',
    "projectSettings",
  );
  assert.deepEqual(fast, {
    name: "fast",
    description: "Fast: quick",
    argumentHint: "name,age",
    body: "Fast body\n",
    model: "claude-haiku-5-5",
    source: "projectSettings",
  });
  const titled = parseCommandFile("titled", "\n# Title line\nBody\n", "userSettings");
  assert.equal(titled.description, "Title line");
  assert.deepEqual(commandInfo(titled), {
    name: "titled",
    description: "Title line (user)",
    argumentHint: "",
  });
  assert.equal(commandInfo(fast).description, "Fast: quick (project)");
});

Deno.test("readCustomCommands: the project's and the config folder's, subfolders as name:parts, sorted, the project's winning", () => {
  const files: Record<string, string> = {
    ".claude/commands/greet.md": "Project greet\n",
    ".claude/commands/sub/deep.md": "Deep\n",
    ".claude/commands/notes.txt": "not a command",
    "/cfg/commands/greet.md": "User greet\n",
    "/cfg/commands/mine.md": "Mine\n",
  };
  const runner: HookCommandRunner = {
    cwd: "/p",
    configDir: "/cfg",
    run: () => Promise.resolve({ code: 0, stdout: "", stderr: "" }),
    readText: (path) => files[path],
    listFiles: (dir) => {
      const found = Object.keys(files).filter((f) => f.startsWith(`${dir}/`)).map((f) =>
        f.slice(dir.length + 1)
      );
      return found.length > 0 ? found : undefined;
    },
  };
  const commands = readCustomCommands(runner);
  assert.deepEqual(commands.map((c) => [c.name, c.source, c.description]), [
    ["greet", "projectSettings", "Project greet"],
    ["mine", "userSettings", "Mine"],
    ["sub:deep", "projectSettings", "Deep"],
  ]);
  assert.equal(expandCommand(commands, "/sub:deep x y")?.text, "Deep\n\n\nARGUMENTS: x y");
  assert.equal(expandCommand(commands, "/nosuch x"), undefined);
  assert.equal(expandCommand(commands, "greet"), undefined);
  // a runner that cannot list folders: no custom commands
  assert.deepEqual(readCustomCommands({ ...runner, listFiles: undefined }), []);
});
