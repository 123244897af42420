// File URL helpers for tests (what @std/path's fromFileUrl / toFileUrl do, for POSIX paths).

/** The path of a file: URL. */
export function fromFileUrl(url: URL | string): string {
  const u = typeof url === "string" ? new URL(url) : url;
  if (u.protocol !== "file:") throw new TypeError(`Not a file URL: ${u.href}`);
  return decodeURIComponent(u.pathname);
}

/** The file: URL of an absolute path. */
export function toFileUrl(path: string): string {
  if (!path.startsWith("/")) throw new TypeError(`Not an absolute path: ${path}`);
  return new URL(`file://${path.split("/").map(encodeURIComponent).join("/")}`).href;
}
