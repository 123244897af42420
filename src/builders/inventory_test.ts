import assert from "node:assert/strict";
import { defaultTools, resolveModel } from "./inventory.ts";
import { DEFAULT_COMMANDS } from "./slash_commands.ts";
import { DEFAULT_MODELS } from "./models.ts";
import { projectSlug } from "./project_paths.ts";

Deno.test("resolveModel resolves aliases and full names", () => {
  assert.equal(resolveModel("sonnet"), "claude-sonnet-5-5");
  assert.equal(resolveModel("default"), "claude-opus-5-5");
  assert.equal(resolveModel("claude-haiku-5-5"), "claude-haiku-5-5");
  assert.equal(resolveModel("gpt-5"), undefined);
  assert.equal(DEFAULT_MODELS.length, 5);
});

Deno.test("projectSlug replaces every non-alphanumeric character", () => {
  assert.equal(projectSlug("/home/user/project"), "-home-user-project");
  assert.equal(projectSlug("/tmp/a_b.c"), "-tmp-a-b-c");
  // every UTF-16 code unit outside [a-zA-Z0-9] (a surrogate pair is two)
  assert.equal(projectSlug("/Users/Zoë/my app/🚀@09AZaz:[`{"), "-Users-Zo--my-app----09AZaz----");
  let all = "";
  for (let c = 0; c < 0x3000; c++) all += String.fromCharCode(c);
  assert.equal(projectSlug(all), all.replace(/[^a-zA-Z0-9]/g, "-"));
});

Deno.test("defaultTools puts Task first and appends MCP tools", () => {
  const tools = defaultTools({ mcpTools: ["mcp__x__y"] });
  assert.equal(tools[0], "Task");
  assert.equal(tools.at(-1), "mcp__x__y");
  // the descriptions in full, as the CLI reports them (never cut with "…")
  assert.ok(DEFAULT_COMMANDS.every((c) => !c.description.endsWith("…")));
});
