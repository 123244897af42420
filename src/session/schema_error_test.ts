import assert from "node:assert/strict";
import { schemaError } from "./schema_error.ts";

Deno.test("schemaError: Ajv's words and paths, the first problem", () => {
  const person = {
    type: "object",
    properties: {
      name: { type: "string", minLength: 2, maxLength: 5, pattern: "^[A-Z]" },
      age: { type: "integer", minimum: 0, maximum: 150 },
      tags: { type: "array", items: { enum: ["a", "b"] }, maxItems: 2, uniqueItems: true },
      kind: { const: "human" },
      "a/b": { type: "boolean" },
    },
    required: ["name"],
    additionalProperties: false,
  };
  const cases: [unknown, string | undefined][] = [
    [{ name: "Ada" }, undefined],
    [[], "root: must be object"],
    [{}, "root: must have required property 'name'"],
    [{ name: "Ada", extra: 1 }, "root: must NOT have additional properties"],
    [{ name: 3 }, "/name: must be string"],
    [{ name: "A" }, "/name: must NOT have fewer than 2 characters"],
    [{ name: "Adalbert" }, "/name: must NOT have more than 5 characters"],
    [{ name: "ada" }, '/name: must match pattern "^[A-Z]"'],
    [{ name: "Ada", age: 1.5 }, "/age: must be integer"],
    [{ name: "Ada", age: -1 }, "/age: must be >= 0"],
    [{ name: "Ada", age: 151 }, "/age: must be <= 150"],
    [{ name: "Ada", tags: ["c"] }, "/tags/0: must be equal to one of the allowed values"],
    [{ name: "Ada", tags: ["a", "b", "a"] }, "/tags: must NOT have more than 2 items"],
    [
      { name: "Ada", tags: ["a", "a"] },
      "/tags: must NOT have duplicate items (items ## 0 and 1 are identical)",
    ],
    [{ name: "Ada", kind: "cat" }, "/kind: must be equal to constant"],
    [{ name: "Ada", "a/b": 1 }, "/a~1b: must be boolean"],
  ];
  for (const [value, want] of cases) {
    assert.equal(schemaError(value, person), want, JSON.stringify(value));
  }
});

Deno.test("schemaError: type lists, anyOf, oneOf, not, $ref, true and false", () => {
  assert.equal(schemaError(null, { type: ["string", "null"] }), undefined);
  assert.equal(schemaError(1, { type: ["string", "null"] }), "root: must be string,null");
  assert.equal(
    schemaError(1, { anyOf: [{ type: "string" }, { type: "boolean" }] }),
    "root: must match a schema in anyOf",
  );
  assert.equal(
    schemaError(1, { oneOf: [{ type: "number" }, { type: "integer" }] }),
    "root: must match exactly one schema in oneOf",
  );
  assert.equal(schemaError("x", { not: { type: "string" } }), "root: must NOT be valid");
  const withRef = {
    type: "object",
    properties: { child: { $ref: "#/$defs/node" } },
    $defs: { node: { type: "object", required: ["id"] } },
  };
  assert.equal(schemaError({ child: {} }, withRef), "/child: must have required property 'id'");
  assert.equal(schemaError({ child: { id: 1 } }, withRef), undefined);
  assert.equal(schemaError("anything", true), undefined);
  assert.equal(schemaError("anything", false), "root: boolean schema is false");
  assert.equal(
    schemaError([1, "x"], { prefixItems: [{ type: "number" }], items: { type: "number" } }),
    "/1: must be number",
  );
});
