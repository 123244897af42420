import assert from "node:assert/strict";
import { WireError } from "./wire_error.ts";

Deno.test("WireError says which line, why and where", () => {
  const cause = new SyntaxError("Unexpected token");
  const error = new WireError("not valid JSON (Unexpected token)", {
    line: 3,
    raw: "{oops",
    cause,
  });
  assert(error instanceof SyntaxError);
  assert.equal(error.name, "WireError");
  assert.equal(error.line, 3);
  assert.equal(error.reason, "not valid JSON (Unexpected token)");
  assert.equal(error.snippet, "{oops");
  assert.equal(error.cause, cause);
  assert.equal(
    error.message,
    'Cannot decode stream-json line 3: not valid JSON (Unexpected token) near "{oops"',
  );
  assert.equal(new WireError("x", { line: 1, raw: "" }).cause, undefined);
});

Deno.test("WireError escapes control characters in the snippet", () => {
  const error = new WireError("bad", { line: 1, raw: 'a\tb"c\u0000\u001b' });
  assert.equal(error.snippet, 'a\\tb\\"c\\u0000\\u001b');
});

Deno.test("WireError shortens the snippet to 80 characters without splitting a pair", () => {
  assert.equal(
    new WireError("bad", { line: 1, raw: "z".repeat(81) }).snippet,
    "z".repeat(80) + "…",
  );
  assert.equal(new WireError("bad", { line: 1, raw: "z".repeat(80) }).snippet, "z".repeat(80));
  const emoji = new WireError("bad", { line: 1, raw: "z".repeat(79) + "\u{1f600}" + "z" });
  assert.equal(emoji.snippet, "z".repeat(79) + "…");
});
