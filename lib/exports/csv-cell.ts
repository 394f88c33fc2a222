/**
 * One CSV cell made safe for spreadsheets (OWASP "CSV injection"): a text cell that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a formula by Excel, LibreOffice
 * or Google Sheets, so it is prefixed with a single quote, which they show as text. Numbers stay
 * numbers (a negative ledger amount is data, not a formula). RFC 4180 quoting is csv-stringify's.
 */
const formulaStart = /^[=+\-@\t\r]/;

export type CellValue = string | number | boolean | null | undefined;

export function inertCell(value: CellValue): string | number {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  return formulaStart.test(value) ? `'${value}` : value;
}

/**
 * RFC 4180 with csv-stringify: CRLF line ends; a cell with a comma, a double quote (doubled) or a
 * line break is quoted. csv-stringify quotes a lone line feed only when it is the record
 * delimiter, hence `quoted_match`.
 */
export const csvOptions = { record_delimiter: "\r\n", quoted_match: /[\r\n]/ } as const;
