/** Prints, per endpoint, the parameters the emulator implements (the README's reference table). */
import { routes } from "../src/routes";

const rows = routes.map(
  (route) =>
    `| \`${route.method} ${route.path}\` | ${route.accepts.length ? route.accepts.map((a) => `\`${a}\``).join(", ") : "none"} |`,
);
console.log(
  ["| Endpoint | Parameters implemented (an entry covers what is under it) |", "| --- | --- |", ...rows].join(
    "\n",
  ),
);
