/** The entries bin/compile.mjs compiles into dist/server, by output name. */
export const compiledEntries: Record<string, string>;
/** The file URL of a compiled entry (main, cli) up to date with its sources that are here; else null. */
export function compiledEntry(name: string): string | null;
/** The compiled entry, compiled first if it is not up to date; null when it cannot be compiled. */
export function compiledOrCompile(name: string): Promise<string | null>;
/** Compiles every entry into dist/server; the output names of the entries. */
export function compile(): Promise<Record<string, string>>;
