const utf8 = new TextDecoder("utf-8", { fatal: true });
const escape = /^%[0-9A-Fa-f]{2}/;

/** Bytes a UTF-8 sequence starting with this lead byte has (0: not a lead byte). */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function decodes(bytes: number[]): boolean {
  try {
    utf8.decode(new Uint8Array(bytes));
    return true;
  } catch {
    return false;
  }
}

/**
 * The path of a request target with every percent escape that cannot decode made literal (`%` →
 * `%25`): a stray `%`, `%ZZ`, bytes that are not UTF-8 (overlong forms, surrogates, `%FF`). The
 * query is left alone (it is decoded leniently). Returns null when the target decodes as it is.
 *
 * Next decodes the path with decodeURIComponent and answers a bare 500 when that throws; so
 * repaired, such a path reaches the app, which finds nothing by it (the router keeps a malformed
 * escape as sent too: lib/api/routes.ts).
 */
export function repairPercentEncoding(target: string): string | null {
  const queryAt = target.indexOf("?");
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  if (!path.includes("%")) return null;
  let out = "";
  let changed = false;
  let i = 0;
  while (i < path.length) {
    if (path[i] !== "%") {
      out += path[i];
      i += 1;
      continue;
    }
    if (!escape.test(path.slice(i, i + 3))) {
      out += "%25";
      changed = true;
      i += 1;
      continue;
    }
    // A whole UTF-8 sequence of escapes is kept only when it decodes; else its lead `%` goes literal.
    const length = sequenceLength(parseInt(path.slice(i + 1, i + 3), 16));
    const bytes: number[] = [];
    for (let k = 0; k < length; k++) {
      const at = i + 3 * k;
      if (!escape.test(path.slice(at, at + 3))) break;
      bytes.push(parseInt(path.slice(at + 1, at + 3), 16));
    }
    if (length > 0 && bytes.length === length && decodes(bytes)) {
      out += path.slice(i, i + 3 * length);
      i += 3 * length;
    } else {
      out += "%25";
      changed = true;
      i += 1;
    }
  }
  return changed ? out + (queryAt === -1 ? "" : target.slice(queryAt)) : null;
}
