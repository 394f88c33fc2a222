/** The kinds of evidence file a dispute takes (Stripe's `dispute_evidence` purpose), by MIME type. */
export const evidenceFileTypes = ["application/pdf", "image/png", "image/jpeg", "image/gif"] as const;
export type EvidenceFileType = (typeof evidenceFileTypes)[number];

// Each kind's first bytes. The declared type is what the browser guessed from the file's name; the
// content is what the issuer will open, so the content decides.
const signatures: { type: EvidenceFileType; bytes: number[] }[] = [
  { type: "application/pdf", bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: "image/png", bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: "image/jpeg", bytes: [0xff, 0xd8, 0xff] },
  { type: "image/gif", bytes: [0x47, 0x49, 0x46, 0x38] }, // GIF8 (GIF87a, GIF89a)
];

/** The evidence kind `data` is by its content (magic bytes), or null when it is none of them. */
export function evidenceFileTypeOf(data: Uint8Array): EvidenceFileType | null {
  const match = signatures.find((s) => s.bytes.length <= data.length && s.bytes.every((b, i) => data[i] === b));
  return match?.type ?? null;
}
