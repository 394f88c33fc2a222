/** The logo formats the hosted pages accept. No SVG: it can carry scripts and external references. */
export const logoContentTypes = ["image/png", "image/jpeg", "image/webp"] as const;
export type LogoContentType = (typeof logoContentTypes)[number];

/** 256 KB: a logo, not a photo. */
export const maxLogoBytes = 256 * 1024;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

/**
 * The image type read from the file's first bytes (its magic number), whatever name or type the
 * browser gave it; null for anything else (SVG, GIF, HTML, text, a truncated header).
 */
export function sniffLogoType(bytes: Uint8Array): LogoContentType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) && startsWith(bytes, [0x49, 0x48, 0x44, 0x52], 12)) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  // RIFF....WEBPVP8 (VP8 , VP8L or VP8X)
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38], 8)) return "image/webp";
  return null;
}

/** Why `bytes` cannot be a logo (empty, too large, not PNG/JPEG/WebP), or its type. */
export function checkLogo(bytes: Uint8Array): { ok: true; contentType: LogoContentType } | { ok: false; message: string } {
  if (bytes.length === 0) return { ok: false, message: "Choose an image file" };
  if (bytes.length > maxLogoBytes) return { ok: false, message: `The logo must be at most ${maxLogoBytes / 1024} KB` };
  const contentType = sniffLogoType(bytes);
  return contentType ? { ok: true, contentType } : { ok: false, message: "The logo must be a PNG, JPEG or WebP image" };
}
