import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = { title: "404: This page could not be found." };

// Any URL no page serves. Next's built-in page, with the site's plain stylesheet (the root layout
// loads none: decision 0019).
export default function NotFound() {
  return (
    <div>
      <h1>404</h1>
      <div>
        <h2>This page could not be found.</h2>
      </div>
    </div>
  );
}
