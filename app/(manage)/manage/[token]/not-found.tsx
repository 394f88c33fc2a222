import { messagesFor } from "@/lib/i18n";
import { requestLocale } from "@/app/(checkout)/checkout/request-locale";

export default async function SubscriptionNotFound() {
  const { manage } = messagesFor(await requestLocale());
  return (
    <main className="page">
      <section className="card" aria-labelledby="not-found-title">
        <h1 id="not-found-title" className="status-title">
          {manage.notFound.title}
        </h1>
        <p className="notice">{manage.notFound.body}</p>
      </section>
    </main>
  );
}
