import assert from "node:assert/strict";
import { any, contains, exact, frameText, glob, predicate, regex, toMatcher } from "./matcher.ts";

const user = (content: unknown) => ({ type: "user", message: { role: "user", content } });

Deno.test("contains, exact, regex, glob, any and predicate match what they say", () => {
  const f = { type: "user" };
  assert.equal(contains("weather").test("what's the weather?", f), true);
  assert.equal(contains("weather").test("what's the time?", f), false);
  assert.equal(exact("hello").test("  hello\n", f), true);
  assert.equal(exact("hello").test("hello there", f), false);
  assert.equal(regex(/^read (\S+)$/i).test("Read notes.txt", f), true);
  assert.equal(regex(/x/g).test("x", f), true);
  assert.equal(regex(/x/g).test("x", f), true, "lastIndex is reset between tests");
  assert.equal(glob("read *.txt").test("read notes.txt", f), true);
  assert.equal(glob("read *.txt").test("read notes.md", f), false);
  assert.equal(glob("file?.[ch]").test("file1.c", f), true);
  assert.equal(glob("[!a]*").test("abc", f), false);
  assert.equal(glob("a\\*b").test("a*b", f), true);
  assert.equal(glob("a\\*b").test("axb", f), false);
  assert.equal(any().test("", f), true);
  assert.equal(predicate((t) => t.length > 3).test("long", f), true);
});

Deno.test("regex matchers expose their capture groups", () => {
  const m = regex(/read (\S+)/).exec!("please read notes.txt");
  assert.equal(m?.[1], "notes.txt");
});

Deno.test("toMatcher turns strings, RegExps and functions into matchers and rejects the rest", () => {
  assert.equal(toMatcher("hi").kind, "contains");
  assert.equal(toMatcher(/hi/).kind, "regex");
  assert.equal(toMatcher(() => true).kind, "predicate");
  const m = exact("x");
  assert.equal(toMatcher(m), m);
  assert.throws(() => toMatcher(null as never), /Invalid trigger: .* got null/);
  assert.throws(() => toMatcher([] as never), /got an array/);
});

Deno.test("frameText reads a user frame's text blocks or string, else the JSON", () => {
  assert.equal(frameText(user("plain")), "plain");
  assert.equal(
    frameText(user([{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }])),
    "a\nb",
  );
  assert.equal(frameText({ type: "keep_alive" }), '{"type":"keep_alive"}');
});
