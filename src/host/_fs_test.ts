import assert from "node:assert/strict";
import { chmod, listDir, makeTempDir, readText, removeTree, writeText } from "./_fs.ts";

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
