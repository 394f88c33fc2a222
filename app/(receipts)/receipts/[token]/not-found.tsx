import { messagesFor } from "@/lib/i18n";
import { requestLocale } from "@/app/(checkout)/checkout/request-locale";

export default async function ReceiptNotFound() {
  const { receipt } = messagesFor(await requestLocale());
  return (
    <main className="page">
      <section className="card" aria-labelledby="not-found-title">
        <h1 id="not-found-title" className="status-title">
          {receipt.notFound.title}
        </h1>
        <p className="notice">{receipt.notFound.body}</p>
      </section>
    </main>
  );
}
