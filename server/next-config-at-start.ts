import fs from "node:fs";
import path from "node:path";

/**
 * The production server's Next config, as `next build` serialized it (.next/required-server-files.json),
 * handed to Next the way its standalone server does (`__NEXT_PRIVATE_STANDALONE_CONFIG`): Next then
 * neither transpiles next.config.ts at start nor loads its compiler's native bindings for it.
 * Pages load on their first request instead of all at start (`preloadEntriesOnStart` off): an
 * instance holds only what it serves (issue 43, decision 0076). False (Next loads next.config.ts
 * itself) when there is no serialized config.
 */
export function takeBuiltNextConfig(root: string): boolean {
  let config: { experimental?: Record<string, unknown> };
  try {
    ({ config } = JSON.parse(
      fs.readFileSync(path.join(root, ".next", "required-server-files.json"), "utf8"),
    ) as { config: typeof config });
  } catch {
    return false;
  }
  const lazy = { ...config, experimental: { ...config.experimental, preloadEntriesOnStart: false } };
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(lazy);
  return true;
}
