import assert from "node:assert/strict";
import { chmod, listDir, makeTempDir, mkdirEach, readText, removeTree, writeText } from "./_fs.ts";

Deno.test("_fs: temp folder, write and read, chmod, listing, removal", async () => {
  const dir = await makeTempDir("claude-mock-fs-");
  try {
    assert.match(dir, /\/claude-mock-fs-[^/]+$/);
    await writeText(`${dir}/a.txt`, "one");
    await writeText(`${dir}/a.txt`, "two"); // replaced
    assert.equal(await readText(`${dir}/a.txt`), "two");
    await chmod(`${dir}/a.txt`, 0o750);
    assert.equal((await Deno.stat(`${dir}/a.txt`)).mode! & 0o777, 0o750);
    await Deno.mkdir(`${dir}/sub`);
    const entries = (await listDir(dir)).sort((x, y) => x.name.localeCompare(y.name));
    assert.deepEqual(entries, [
      { name: "a.txt", isDirectory: false },
      { name: "sub", isDirectory: true },
    ]);
  } finally {
    await removeTree(dir);
  }
  await assert.rejects(Deno.stat(dir), Deno.errors.NotFound);
});

Deno.test("mkdirEach: makes the missing folders; a parent that refuses children is an error, not a loop", () => {
  const made = new Set(["/", "/a", "/proc"]);
  const calls: string[] = [];
  const fs = {
    mkdirSync(path: string) {
      calls.push(path);
      if (calls.length > 50) throw new Error("looping");
      const error = (code: string) =>
        Object.assign(new Error(`${code}: mkdir '${path}'`), { code });
      if (made.has(path)) throw error("EEXIST");
      const parent = path.slice(0, path.lastIndexOf("/")) || "/";
      // /proc exists, yet refuses a child with ENOENT (as Linux does)
      if (!made.has(parent) || parent === "/proc") throw error("ENOENT");
      made.add(path);
    },
    statSync: (path: string) => ({ isDirectory: () => made.has(path) }),
  };
  mkdirEach(fs, "/a/b/c");
  assert.ok(made.has("/a/b/c"));
  mkdirEach(fs, "/a/b/c"); // there already
  calls.length = 0;
  assert.throws(() => mkdirEach(fs, "/proc/x/y"), /ENOENT: mkdir '\/proc\/x'/);
  assert.ok(calls.length < 10, `${calls.length} calls`);
  made.add("/file");
  fs.statSync = (path: string) => ({ isDirectory: () => made.has(path) && path !== "/file" });
  assert.throws(() => mkdirEach(fs, "/file"), /EEXIST/);
});
