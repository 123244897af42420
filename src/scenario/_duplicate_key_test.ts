import assert from "node:assert/strict";
import { duplicateKey } from "./_duplicate_key.ts";

Deno.test("duplicateKey: none in distinct names, arrays, strings that look like JSON", () => {
  assert.equal(
    duplicateKey('{"a":1,"b":[{"a":2},{"a":3}],"c":"{\\"a\\":1,\\"a\\":2}"}'),
    undefined,
  );
  assert.equal(duplicateKey("[1,2,3]"), undefined);
  assert.equal(duplicateKey('"x"'), undefined);
  assert.equal(duplicateKey('{"a\\\\":1,"a":2}'), undefined); // a\ and a are two names
});

Deno.test("duplicateKey: the object's path, the name and where the repeat starts", () => {
  const text = '{"exchanges":[{"on":"hi","steps":[{"say":"a"},{"say":"b","say":"c"}]}]}';
  assert.deepEqual(duplicateKey(text), {
    path: "exchanges[0].steps[1]",
    key: "say",
    offset: text.lastIndexOf('"say"'),
  });
  assert.deepEqual(duplicateKey('{"a":1,"a":2}'), { path: "", key: "a", offset: 7 });
  // names compare unescaped; odd names are written as the loader writes paths
  assert.equal(duplicateKey('{"x y":{"a":1,"\\u0061":2}}')?.path, '["x y"]');
  assert.equal(duplicateKey('{"x y":{"a":1,"\\u0061":2}}')?.key, "a");
});

Deno.test("duplicateKey: any depth, no recursion", () => {
  const depth = 200_000;
  const text = '{"a":'.repeat(depth) + '{"k":1,"k":2}' + "}".repeat(depth);
  const found = duplicateKey(text);
  assert.equal(found?.key, "k");
  assert.equal(found?.offset, text.lastIndexOf('"k"'));
});
