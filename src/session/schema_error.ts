/**
 * Checks a value against a JSON Schema the way the real CLI checks the input of its
 * `StructuredOutput` tool (`--json-schema`, the SDK's `outputFormat`): the first problem, in
 * Ajv's words and with Ajv's instance path (`root: must have required property 'age'`,
 * `/age: must be number`, as the real CLI 2.1.328 words them). Draft 2020-12 and draft-07
 * keywords a structured output uses; `format` is not checked. Internal.
 *
 * @module
 */

type Schema = Record<string, unknown> | boolean;

/**
 * The first way `value` breaks `schema`, as `<path>: <message>` (`root` for the value
 * itself), or `undefined` when it fits.
 *
 * @example A missing property and a wrong type
 * ```ts
 * import { schemaError } from "./schema_error.ts";
 * const schema = { type: "object", properties: { age: { type: "number" } }, required: ["age"] };
 * console.log(schemaError({}, schema)); // root: must have required property 'age'
 * console.log(schemaError({ age: "old" }, schema)); // /age: must be number
 * console.log(schemaError({ age: 36 }, schema)); // undefined
 * ```
 */
export function schemaError(value: unknown, schema: unknown): string | undefined {
  const found = check(value, schema as Schema, "", schema as Schema);
  return found === undefined ? undefined : `${found.path || "root"}: ${found.message}`;
}

interface Problem {
  path: string;
  message: string;
}

function check(value: unknown, schema: Schema, path: string, root: Schema): Problem | undefined {
  if (schema === true || schema === undefined || schema === null) return undefined;
  if (schema === false) return { path, message: "boolean schema is false" };
  if (typeof schema !== "object") return undefined;
  const fail = (message: string): Problem => ({ path, message });
  const ref = schema.$ref;
  if (typeof ref === "string") {
    const target = resolveRef(root, ref);
    if (target !== undefined) {
      const problem = check(value, target, path, root);
      if (problem) return problem;
    }
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type.map(String) : [String(schema.type)];
    if (!types.some((t) => isType(value, t))) return fail(`must be ${types.join(",")}`);
  }
  if ("const" in schema && !equal(value, schema.const)) return fail("must be equal to constant");
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => equal(value, e))) {
    return fail("must be equal to one of the allowed values");
  }
  const problem = typeof value === "number"
    ? checkNumber(value, schema)
    : typeof value === "string"
    ? checkString(value, schema)
    : Array.isArray(value)
    ? checkArray(value, schema, path, root)
    : isPlainObject(value)
    ? checkObject(value, schema, path, root)
    : undefined;
  if (problem) return typeof problem === "string" ? fail(problem) : problem;
  if (schema.not !== undefined && check(value, schema.not as Schema, path, root) === undefined) {
    return fail("must NOT be valid");
  }
  if (Array.isArray(schema.anyOf)) {
    if (!schema.anyOf.some((s) => check(value, s as Schema, path, root) === undefined)) {
      return fail("must match a schema in anyOf");
    }
  }
  if (Array.isArray(schema.oneOf)) {
    const passing = schema.oneOf.filter((s) => check(value, s as Schema, path, root) === undefined);
    if (passing.length !== 1) return fail("must match exactly one schema in oneOf");
  }
  if (Array.isArray(schema.allOf)) {
    for (const s of schema.allOf) {
      const found = check(value, s as Schema, path, root);
      if (found) return found;
    }
  }
  return undefined;
}

function checkNumber(value: number, schema: Record<string, unknown>): string | undefined {
  const n = (key: string) => (typeof schema[key] === "number" ? schema[key] as number : undefined);
  const max = n("maximum");
  if (max !== undefined && !(value <= max)) return `must be <= ${max}`;
  const min = n("minimum");
  if (min !== undefined && !(value >= min)) return `must be >= ${min}`;
  const step = n("multipleOf");
  if (step !== undefined && step > 0 && !Number.isInteger(value / step)) {
    return `must be multiple of ${step}`;
  }
  const xmax = n("exclusiveMaximum");
  if (xmax !== undefined && !(value < xmax)) return `must be < ${xmax}`;
  const xmin = n("exclusiveMinimum");
  if (xmin !== undefined && !(value > xmin)) return `must be > ${xmin}`;
  return undefined;
}

function checkString(value: string, schema: Record<string, unknown>): string | undefined {
  const length = [...value].length;
  if (typeof schema.maxLength === "number" && length > schema.maxLength) {
    return `must NOT have more than ${schema.maxLength} characters`;
  }
  if (typeof schema.minLength === "number" && length < schema.minLength) {
    return `must NOT have fewer than ${schema.minLength} characters`;
  }
  if (typeof schema.pattern === "string") {
    let matches = true;
    try {
      matches = new RegExp(schema.pattern, "u").test(value);
    } catch {
      // a pattern JavaScript cannot read is not checked
    }
    if (!matches) return `must match pattern "${schema.pattern}"`;
  }
  return undefined;
}

function checkArray(
  value: unknown[],
  schema: Record<string, unknown>,
  path: string,
  root: Schema,
): Problem | string | undefined {
  if (typeof schema.maxItems === "number" && value.length > schema.maxItems) {
    return `must NOT have more than ${schema.maxItems} items`;
  }
  if (typeof schema.minItems === "number" && value.length < schema.minItems) {
    return `must NOT have fewer than ${schema.minItems} items`;
  }
  const prefix = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
    ? schema.items
    : [];
  const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  for (let i = 0; i < value.length; i++) {
    const item = i < prefix.length ? prefix[i] : rest;
    if (item === undefined) continue;
    const found = check(value[i], item as Schema, `${path}/${i}`, root);
    if (found) return found;
  }
  if (schema.uniqueItems === true) {
    for (let i = value.length - 1; i > 0; i--) {
      for (let j = i - 1; j >= 0; j--) {
        if (equal(value[i], value[j])) {
          return `must NOT have duplicate items (items ## ${j} and ${i} are identical)`;
        }
      }
    }
  }
  return undefined;
}

function checkObject(
  value: Record<string, unknown>,
  schema: Record<string, unknown>,
  path: string,
  root: Schema,
): Problem | string | undefined {
  const keys = Object.keys(value);
  if (typeof schema.maxProperties === "number" && keys.length > schema.maxProperties) {
    return `must NOT have more than ${schema.maxProperties} properties`;
  }
  if (typeof schema.minProperties === "number" && keys.length < schema.minProperties) {
    return `must NOT have fewer than ${schema.minProperties} properties`;
  }
  if (Array.isArray(schema.required)) {
    for (const name of schema.required) {
      if (!Object.hasOwn(value, String(name))) return `must have required property '${name}'`;
    }
  }
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const patterns = isPlainObject(schema.patternProperties)
    ? Object.entries(schema.patternProperties).flatMap(([p, s]) => {
      try {
        return [{ regex: new RegExp(p, "u"), schema: s as Schema }];
      } catch {
        return [];
      }
    })
    : [];
  const additional = schema.additionalProperties;
  if (additional !== undefined && additional !== true) {
    for (const key of keys) {
      if (Object.hasOwn(properties, key) || patterns.some((p) => p.regex.test(key))) continue;
      if (additional === false) return "must NOT have additional properties";
      const found = check(value[key], additional as Schema, `${path}/${pointer(key)}`, root);
      if (found) return found;
    }
  }
  for (const [key, sub] of Object.entries(properties)) {
    if (!Object.hasOwn(value, key)) continue;
    const found = check(value[key], sub as Schema, `${path}/${pointer(key)}`, root);
    if (found) return found;
  }
  for (const { regex, schema: sub } of patterns) {
    for (const key of keys) {
      if (!regex.test(key)) continue;
      const found = check(value[key], sub, `${path}/${pointer(key)}`, root);
      if (found) return found;
    }
  }
  return undefined;
}

function isType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    default:
      return true;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Deep equality of JSON values (key order does not matter). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
      a.every((x, i) => equal(x, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
}

/** A key as a JSON Pointer token. */
function pointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** A local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`), or `undefined`. */
function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith("#")) return undefined;
  let target: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isPlainObject(target) || !Object.hasOwn(target, key)) return undefined;
    target = target[key];
  }
  return typeof target === "boolean" || isPlainObject(target) ? target : undefined;
}
