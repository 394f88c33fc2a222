import "./globals.css";

export default function Home() {
  return (
    <main className="page">
      <section className="card">
        <h1 className="status-title">Kassa</h1>
        <p className="notice">A self-hostable payment service. The API lives under /api; see the README.</p>
      </section>
    </main>
  );
}
