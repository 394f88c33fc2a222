/** A strict RFC 4180 reader for tests: rows of cells, CRLF records, quoted cells with "" inside. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === "") quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else if (c === "\r" || c === "\n" || c === '"') throw new Error(`bare ${JSON.stringify(c)} at ${i}: not RFC 4180`);
    else cell += c;
  }
  if (cell !== "" || row.length) throw new Error("the last record has no CRLF");
  return rows;
}
