import { messagesFor } from "@/lib/i18n";
import { requestLocale } from "../request-locale";

export default async function SessionNotFound() {
  const { states } = messagesFor(await requestLocale());
  return (
    <main className="page">
      <section className="card" aria-labelledby="not-found-title">
        <h1 id="not-found-title" className="status-title">
          {states.notFound.title}
        </h1>
        <p className="notice">{states.notFound.body}</p>
      </section>
    </main>
  );
}
