import "node:stream"; import "node:events"; import "node:fs"; import "node:async_hooks"; import "node:path"; import "node:url";
