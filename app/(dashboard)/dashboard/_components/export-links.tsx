import { Download } from "lucide-react";
import { buttonVariants } from "@/components/ui/button";

/** Download buttons for a list's CSV exports (plain links: the browser saves the file). */
export function ExportLinks({ links }: { links: { href: string; label: string }[] }) {
  return (
    <div className="flex flex-wrap gap-2" aria-label="Exports" role="group">
      {links.map(({ href, label }) => (
        <a key={href} href={href} download className={buttonVariants({ variant: "outline", size: "sm" })}>
          <Download aria-hidden /> {label}
        </a>
      ))}
    </div>
  );
}
