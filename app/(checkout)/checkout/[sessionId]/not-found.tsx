export default function SessionNotFound() {
  return (
    <main className="page">
      <section className="card" role="status">
        <h1 className="status-title">Payment session not found</h1>
        <p className="notice">Check the link you were given, or ask the merchant for a new one.</p>
      </section>
    </main>
  );
}
