// docs/node.md, the npm package's README: the excerpts of CI's test files it shows (blocks that
// start with `// npm_test/<file>`) are in those files word for word, so they run in CI
// (scripts/npm_check.ts); its own files run there too (npm_test/readme.test.mjs). Written for
// Node: no Deno API in it.
import assert from "node:assert/strict";
import { fromFileUrl } from "./_paths.ts";

const root = fromFileUrl(new URL("..", import.meta.url));
const page = await Deno.readTextFile(`${root}docs/node.md`);
const blocks = [...page.matchAll(/^( *)```(\w*)[^\n]*\n([\s\S]*?)^\1```$/gm)].map((m) => ({
  lang: m[2],
  text: m[3].split("\n").map((l) => l.slice(m[1].length)).join("\n"),
}));

Deno.test("docs/node.md: each excerpt of an npm_test file is in that file, word for word", async () => {
  const excerpts = blocks.filter((b) => /^\/\/ npm_test\/\S+\n/.test(b.text));
  assert.ok(excerpts.length >= 4, `only ${excerpts.length} excerpts`);
  for (const block of excerpts) {
    const [first, ...rest] = block.text.split("\n");
    const file = first.slice("// ".length);
    const text = await Deno.readTextFile(`${root}${file}`);
    const excerpt = rest.join("\n").trimEnd();
    assert.ok(
      text.includes(excerpt),
      `docs/node.md shows lines that ${file} does not have:\n${excerpt}`,
    );
  }
});

Deno.test("docs/node.md: written for Node, its commands run by the README test", () => {
  assert.doesNotMatch(page, /\bDeno\./);
  const runs = blocks.flatMap((b) => /^\/\/ \S+\n\/\/ run: (.+)\n/.exec(b.text)?.[1] ?? []);
  assert.deepEqual(runs, [
    "node --import @x/claude-mock/register --test test/assistant.test.mjs",
    "node first.mjs",
    "node --test app.test.mjs",
    "node binary.mjs",
  ]);
});
