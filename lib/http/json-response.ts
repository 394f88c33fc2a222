/**
 * A Response whose body is a JSON text, made without the body's stream until someone asks for it.
 *
 * `new Response(text)` builds a ReadableStream for the text at once: about 7 µs of a request's
 * CPU on this machine's Node, against 0.5 µs for a Response without a body (docs/benchmarks.md).
 * Most of the API's answers are never read as a stream: the server's own writer
 * (server/api-fast-path.ts) sends `text` as it is. Everything that reads the body (Next's route
 * handling takes `body`; idempotent-operation.ts calls `json()`) gets a real Response's, made
 * once, on first use, from the same text, status and headers.
 */
export class JsonResponse extends Response {
  /** The body, as given. */
  readonly #text: string;
  /** The Response that holds the body's stream, once something has asked for it. */
  #real: Response | undefined;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
  }

  /** The JSON text while nobody has read the body; undefined once it has been. */
  unreadText(): string | undefined {
    return this.#real?.bodyUsed ? undefined : this.#text;
  }

  #withBody(): Response {
    return (this.#real ??= new Response(this.#text, this));
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#withBody().body;
  }

  override get bodyUsed(): boolean {
    return this.#real?.bodyUsed ?? false;
  }

  override text(): Promise<string> {
    return this.#withBody().text();
  }

  override json(): Promise<unknown> {
    return this.#withBody().json();
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#withBody().arrayBuffer();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#withBody().bytes();
  }

  override blob(): Promise<Blob> {
    return this.#withBody().blob();
  }

  override formData(): Promise<FormData> {
    return this.#withBody().formData();
  }

  override clone(): Response {
    if (this.bodyUsed) return this.#withBody().clone();
    return new JsonResponse(this.#text, this);
  }
}
