import assert from "node:assert/strict";
import { initialize, load, realUrl, resolve, wrapperSource, wrapperUrl } from "./_node_hooks.ts";
import { howToIntercept } from "./_messages.ts";
import { register } from "./register.ts";

const wrap = "file:///pkg/src/intercept/wrap_claude_sdk.js";
const real = "file:///app/node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs";

Deno.test("Node hooks: the SDK's specifiers resolve to a wrapper of the copy the importer gets", async () => {
  initialize({ wrapModule: wrap });
  const seen: string[] = [];
  const next = (specifier: string, context: { parentURL?: string }) => {
    seen.push(`${specifier} from ${context.parentURL}`);
    return Promise.resolve({ url: specifier.startsWith("@") ? real : `file:///app/${specifier}` });
  };
  const routed = await resolve(
    "@anthropic-ai/claude-agent-sdk",
    { parentURL: "file:///app/a.js" },
    next,
  );
  assert.equal(routed.url, wrapperUrl(real));
  assert.equal(routed.shortCircuit, true);
  assert.equal(realUrl(routed.url), real);
  assert.equal(
    (await resolve("./b.js", { parentURL: "file:///app/a.js" }, next)).url,
    "file:///app/./b.js",
  );
  assert.equal(
    realUrl((await resolve("@anthropic-ai/claude-agent-sdk/core", {}, next)).url),
    real,
  );
  // resolved as the importer would have resolved it
  assert.equal(seen[0], "@anthropic-ai/claude-agent-sdk from file:///app/a.js");
  assert.equal(realUrl(real), undefined);
});

Deno.test("Node hooks: the wrapper module re-exports the real SDK, query/startup/prewarm wrapped", async () => {
  initialize({ wrapModule: wrap });
  const loaded = await load(wrapperUrl(real), {}, () => Promise.reject(new Error("not here")));
  assert.equal(loaded.format, "module");
  assert.equal(loaded.source, wrapperSource(real, wrap));
  const source = String(loaded.source);
  assert.match(source, new RegExp(`^import \\* as sdk from "${real}";$`, "m"));
  assert.match(source, new RegExp(`^export \\* from "${real}";$`, "m"));
  assert.match(source, new RegExp(`^import \\{ wrapClaudeSdk \\} from "${wrap}";$`, "m"));
  for (const name of ["query", "startup", "prewarm"]) {
    assert.match(source, new RegExp(`^export const ${name} = wrapped\\.${name};$`, "m"));
  }
  const other = await load(
    "file:///app/a.js",
    {},
    () => Promise.resolve({ format: "module", source: "x" }),
  );
  assert.equal(other.source, "x");
});

Deno.test("register() on Deno: the import map routes the SDK, and the error says so", () => {
  assert.throws(
    () => register(),
    /register\(\) installs Node's module hooks; on Deno, map "@anthropic-ai\/claude-agent-sdk" to a module that exports wrapClaudeSdk\(sdk\)/,
  );
});

Deno.test("howToIntercept: the setup of each runner", () => {
  assert.match(howToIntercept("node"), /node --import @x\/claude-mock\/register --test/);
  assert.match(howToIntercept("vitest"), /"@x\/claude-mock\/vitest" to test\.setupFiles/);
  assert.match(howToIntercept("jest"), /"@x\/claude-mock\/jest" to setupFilesAfterEnv/);
  assert.match(howToIntercept("deno"), /import map/);
});
