import assert from "node:assert/strict";
import { prefixRule } from "./permission_updates.ts";
import { ruleMatches } from "../scenario/permission_rules.ts";

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
