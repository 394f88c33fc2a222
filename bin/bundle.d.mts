/**
 * The file URL of `entry`'s bundle (a path relative to the project root, or absolute), built or
 * rebuilt if needed; null when it cannot be built, or with KASSA_BUNDLE=0.
 */
export function bundledEntry(entry: string): Promise<string | null>;
/** The file URL of `entry`'s bundle if one is up to date, without building one. */
export function builtEntry(entry: string): string | null;
