import type { IncomingMessage, ServerResponse } from "node:http";
import { authenticate } from "./accounts";
import { runDueWork } from "./clock";
import type { DashboardRoute } from "./dashboard-routes";
import { invalidRequest, StripeApiError } from "./errors";
import { type FormObject, Params, parseForm } from "./form";
import { everyAccount } from "./stored-accounts";
import { type Account, accountNow, automatic, type Emulator } from "./state";

/** Serves a `/_emulator/` request; false when no helper matches (the caller answers 404). */
export async function matchDashboard(
  emu: Emulator,
  routes: DashboardRoute[],
  method: string,
  url: URL,
  request: IncomingMessage,
  body: string,
  response: ServerResponse,
): Promise<boolean> {
  const route = routes.find((r) => r.method === method && r.pattern.test(url.pathname));
  if (!route) return false;
  const match = route.pattern.exec(url.pathname) as RegExpExecArray;
  const raw = parseBody(request, body);
  let account: Account | undefined;
  if (route.account === "key" && request.headers.authorization)
    account = authenticate(emu, request.headers.authorization).account;
  if (route.account === "path") {
    account = await openAccountById(emu, match[1] ?? "");
    if (!account) throw invalidRequest(`No such account: '${match[1]}'`, { status: 404 });
  }
  const dueWork = (opened: Account) =>
    runDueWork({ emu, account: opened, request: automatic }, null, accountNow(emu, opened));
  if (!account) {
    for (const opened of emu.accounts.values()) {
      dueWork(opened);
      emu.saver.touch(opened);
    }
  }
  const params = new Params(raw);
  try {
    const result = account
      ? await emu.saver.run(account, method === "GET" ? "read" : "write", () => {
          dueWork(account);
          return route.handle({ emu, match, url, params, request }) as ReturnType<typeof route.handle>;
        })
      : await route.handle({ emu, match, url, params, request });
    if (!account) await emu.saver.save();
    writeResult(response, result);
  } catch (error) {
    if (!(error instanceof StripeApiError)) throw error;
    if (!account) await emu.saver.save();
    response.writeHead(error.status, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: error.body }));
  }
  return true;
}

/** A helper's parameters: a JSON body, or a form body. */
function parseBody(request: IncomingMessage, body: string): FormObject {
  if (!body.trim()) return {};
  if (!request.headers["content-type"]?.includes("application/json")) return parseForm(body);
  try {
    return JSON.parse(body) as FormObject;
  } catch {
    throw invalidRequest("Invalid JSON body.");
  }
}

function writeResult(response: ServerResponse, result: Awaited<ReturnType<DashboardRoute["handle"]>>): void {
  if ("pdf" in result) {
    response.writeHead(200, { "content-type": "application/pdf", "content-length": result.pdf.length });
    response.end(result.pdf);
  } else if ("html" in result) {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(result.html);
  } else if ("redirect" in result) {
    response.writeHead(303, { location: result.redirect });
    response.end();
  } else {
    const payload = JSON.stringify(result.json, null, 2);
    response.writeHead(200, { "content-type": "application/json" });
    response.end(payload);
  }
}

/** An account by id: in memory, else in shared storage (another process created it). */
async function openAccountById(emu: Emulator, id: string): Promise<Account | undefined> {
  return everyAccount(emu).find((a) => a.id === id) ?? (await emu.saver.findById(id));
}
