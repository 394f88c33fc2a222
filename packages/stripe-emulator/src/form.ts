import { invalidRequest, missingParam } from "./errors";

/** A decoded request parameter: what `a[b][0]=x` style form bodies (and JSON bodies) carry. */
export type FormValue = string | number | boolean | null | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/**
 * Decodes a form body the way Stripe reads what its SDKs send: `a[b][c]=v` nests objects,
 * `a[0]=v` and `a[]=v` build arrays. Later duplicates of a scalar key win.
 */
export function parseForm(body: string): FormObject {
  const root: FormObject = {};
  if (!body) return root;
  for (const pair of body.split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? "" : pair.slice(eq + 1);
    const key = decode(rawKey);
    const value = decode(rawValue);
    assign(root, keyPath(key), value);
  }
  return arraysFromIndexedObjects(root) as FormObject;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** `a[b][]` → ["a", "b", ""]; an empty segment means "append". */
function keyPath(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const path = [key.slice(0, open)];
  const re = /\[([^\]]*)\]/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(key.slice(open))) !== null) path.push(match[1] ?? "");
  return path;
}

function assign(target: FormObject, path: string[], value: string): void {
  let node: FormObject = target;
  for (let i = 0; i < path.length; i++) {
    let segment = path[i] ?? "";
    if (segment === "") segment = String(Object.keys(node).length);
    if (i === path.length - 1) {
      node[segment] = value;
      return;
    }
    const next = node[segment];
    if (typeof next !== "object" || next === null || Array.isArray(next)) node[segment] = {};
    node = node[segment] as FormObject;
  }
}

/** Objects whose keys are all array indices become arrays, ordered by index. */
function arraysFromIndexedObjects(value: FormValue): FormValue {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(arraysFromIndexedObjects);
  const keys = Object.keys(value);
  const converted: FormObject = {};
  for (const key of keys) converted[key] = arraysFromIndexedObjects(value[key] as FormValue);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((index) => converted[String(index)] as FormValue);
  }
  return converted;
}

/**
 * Typed reads of request parameters with Stripe's error messages. `path` is the parameter's
 * name as Stripe reports it (`items[0][price_data][currency]`).
 */
export class Params {
  constructor(
    readonly raw: FormObject,
    private readonly path = "",
  ) {}

  name(key: string): string {
    return this.path ? `${this.path}[${key}]` : key;
  }

  has(key: string): boolean {
    return this.raw[key] !== undefined;
  }

  keys(): string[] {
    return Object.keys(this.raw);
  }

  /** A string; `""` reads as absent unless `allowEmpty`. */
  string(key: string, options: { required: true; allowEmpty?: boolean }): string;
  string(key: string, options?: { required?: boolean; allowEmpty?: boolean }): string | undefined;
  string(key: string, { required = false, allowEmpty = false } = {}): string | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null || (value === "" && !allowEmpty)) {
      if (required) throw missingParam(this.name(key));
      return undefined;
    }
    if (typeof value === "object")
      throw invalidRequest(`Invalid string: ${this.name(key)}`, { param: this.name(key) });
    return String(value);
  }

  /** For "emptyable" parameters: `""` means "unset" (null), absent means "unchanged" (undefined). */
  nullableString(key: string): string | null | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (value === "" || value === null) return null;
    return this.string(key);
  }

  int(key: string, options: { required: true; min?: number; max?: number }): number;
  int(key: string, options?: { required?: boolean; min?: number; max?: number }): number | undefined;
  int(key: string, { required = false, min, max }: { required?: boolean; min?: number; max?: number } = {}) {
    const text = this.string(key, { required });
    if (text === undefined) return undefined;
    if (!/^-?\d+$/.test(text.trim())) {
      throw invalidRequest(`Invalid integer: ${text}`, {
        param: this.name(key),
        code: "parameter_invalid_integer",
      });
    }
    const value = Number(text);
    if (!Number.isSafeInteger(value)) {
      throw invalidRequest(`Invalid integer: ${text}`, {
        param: this.name(key),
        code: "parameter_invalid_integer",
      });
    }
    if (min !== undefined && value < min) {
      throw invalidRequest(`This value must be greater than or equal to ${min}.`, {
        param: this.name(key),
        code: "parameter_invalid_integer",
      });
    }
    if (max !== undefined && value > max) {
      throw invalidRequest(`This value must be less than or equal to ${max}.`, {
        param: this.name(key),
        code: "parameter_invalid_integer",
      });
    }
    return value;
  }

  bool(key: string): boolean | undefined {
    const value = this.raw[key];
    if (value === undefined || value === "") return undefined;
    if (value === true || value === "true") return true;
    if (value === false || value === "false") return false;
    throw invalidRequest(`Invalid boolean: ${String(value)}`, { param: this.name(key) });
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], options: { required: true }): T;
  oneOf<T extends string>(
    key: string,
    allowed: readonly T[],
    options?: { required?: boolean },
  ): T | undefined;
  oneOf<T extends string>(key: string, allowed: readonly T[], { required = false } = {}): T | undefined {
    const value = this.string(key, { required });
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      throw invalidRequest(`Invalid ${this.name(key)}: must be one of ${allowed.join(", ")}`, {
        param: this.name(key),
      });
    }
    return value as T;
  }

  object(key: string, options: { required: true }): Params;
  object(key: string, options?: { required?: boolean }): Params | undefined;
  object(key: string, { required = false } = {}): Params | undefined {
    const value = this.raw[key];
    if (value === undefined || value === "") {
      if (required) throw missingParam(this.name(key));
      return undefined;
    }
    if (typeof value !== "object" || value === null) {
      throw invalidRequest(`Invalid object: ${this.name(key)}`, { param: this.name(key) });
    }
    const record: FormObject = Array.isArray(value)
      ? Object.fromEntries(value.map((v, i) => [String(i), v]))
      : value;
    return new Params(record, this.name(key));
  }

  /** An array of hashes such as `items[0][price]=...`. */
  objects(key: string): Params[] | undefined {
    const value = this.raw[key];
    if (value === undefined || value === "") return undefined;
    const list = Array.isArray(value)
      ? value
      : typeof value === "object" && value !== null
        ? Object.values(value)
        : null;
    if (!list) throw invalidRequest(`Invalid array: ${this.name(key)}`, { param: this.name(key) });
    return list.map((item, index) => {
      const name = `${this.name(key)}[${index}]`;
      if (typeof item !== "object" || item === null || Array.isArray(item)) {
        throw invalidRequest(`Invalid object: ${name}`, { param: name });
      }
      return new Params(item, name);
    });
  }

  strings(key: string): string[] | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (value === "") return [];
    const list = Array.isArray(value)
      ? value
      : typeof value === "object" && value !== null
        ? Object.values(value)
        : [value];
    return list.map((item, index) => {
      if (typeof item === "object" && item !== null) {
        throw invalidRequest(`Invalid string: ${this.name(key)}[${index}]`, {
          param: `${this.name(key)}[${index}]`,
        });
      }
      return String(item);
    });
  }

  /**
   * Metadata as Stripe merges it: `metadata=""` clears all keys, `metadata[k]=""` removes k.
   * Returns the new metadata given the current one, or undefined when the parameter is absent.
   */
  metadata(key: string, current: Record<string, string> = {}): Record<string, string> | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (value === "" || value === null) return {};
    if (typeof value !== "object") {
      throw invalidRequest(`Invalid object: ${this.name(key)}`, { param: this.name(key) });
    }
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    const merged: Record<string, string> = { ...current };
    for (const [k, v] of entries) {
      if (typeof v === "object" && v !== null) {
        throw invalidRequest(`Invalid string: ${this.name(key)}[${k}]`, { param: `${this.name(key)}[${k}]` });
      }
      if (v === "" || v === null) delete merged[k];
      else merged[k] = String(v);
    }
    if (Object.keys(merged).length > 50) {
      throw invalidRequest("Metadata can have up to 50 keys.", { param: this.name(key) });
    }
    return merged;
  }

  /** `expand[]` paths. */
  expand(): string[] {
    return this.strings("expand") ?? [];
  }
}
