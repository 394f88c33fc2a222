import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A real SMTP server on loopback for tests: every message it accepts, parsed (mailparser). */
export type SmtpReceiver = {
  url: string;
  received: ParsedMail[];
  /** Resolves with the first message to `to` (case-insensitive) that matches, within `timeoutMs`. */
  waitFor: (to: string, match?: (mail: ParsedMail) => boolean, timeoutMs?: number) => Promise<ParsedMail>;
  /** Answers the next `count` messages with this SMTP error (e.g. 451 temporary, 550 permanent). */
  failNext: (count: number, code: number) => void;
  close: () => Promise<void>;
};

/** `port`: listen there (a receiver started again where a stopped one was); any free port when unset. */
export async function startSmtpReceiver(options: { port?: number } = {}): Promise<SmtpReceiver> {
  const received: ParsedMail[] = [];
  const waiters: Array<() => void> = [];
  let failures = { count: 0, code: 451 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      if (failures.count > 0) {
        failures.count -= 1;
        stream.resume();
        stream.on("end", () =>
          callback(Object.assign(new Error("Try again later"), { responseCode: failures.code })),
        );
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  const recipients = (mail: ParsedMail) =>
    [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => (v.address ?? "").toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    failNext: (count, code) => {
      failures = { count, code };
    },
    waitFor: async (to, match = () => true, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((m) => recipients(m).includes(to.toLowerCase()) && match(m));
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no e-mail to ${to} arrived within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
