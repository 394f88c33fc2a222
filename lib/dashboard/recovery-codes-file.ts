/** What the recovery codes' Download button saves, and the Copy button copies. */
export type RecoveryCodesFile = { name: string; text: string; href: string };

/**
 * The recovery codes as a text file: what they are for, one code a line, when they were made.
 * `href` is a data: URL, so the download needs no script and no request (the codes never travel
 * again).
 */
export function recoveryCodesFile(codes: readonly string[], account: string, madeAt: Date): RecoveryCodesFile {
  const day = madeAt.toISOString().slice(0, 10);
  const text = [
    `Kassa recovery codes for ${account}`,
    `Made ${day}. Each code signs you in once in place of a code from your app; new codes replace these.`,
    "",
    ...codes,
    "",
  ].join("\n");
  return { name: `kassa-recovery-codes-${day}.txt`, text, href: `data:text/plain;charset=utf-8,${encodeURIComponent(text)}` };
}
