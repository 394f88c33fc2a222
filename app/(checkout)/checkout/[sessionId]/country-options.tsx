"use client";

import { startTransition, useEffect, useState } from "react";

export type CountryOption = { code: string; name: string };

/**
 * The billing country's options. The server's HTML carries only the first ("Choose a country"):
 * the 250 countries join the list once the page has hydrated, in a transition of their own
 * (decision 0033, fifth pass). Before hydration nothing on the page can pay, and the list is then
 * the first layout's largest part (Chromium measures every option) and a second copy of the names,
 * which also travel in the page's data for React.
 */
export function CountryOptions({ countries, placeholder }: { countries: CountryOption[]; placeholder: string }) {
  const [listed, setListed] = useState(false);
  useEffect(() => startTransition(() => setListed(true)), []);
  return (
    <>
      <option value="">{placeholder}</option>
      {listed
        ? countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))
        : null}
    </>
  );
}
