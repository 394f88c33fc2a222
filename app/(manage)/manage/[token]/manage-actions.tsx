import { interpolate, type Messages } from "@/lib/i18n";
import type { ManageAction } from "@/lib/manage/manage-view";
import { cancelFromLink, resumeFromLink } from "./actions";
import type { ManageResult } from "./manage-result";

type Props = {
  token: string;
  action: ManageAction;
  result: ManageResult | null;
  merchant: string;
  /** The period end, formatted (or "the end of the current period"). */
  date: string;
  messages: Messages["manage"];
};

/** What the customer can do now, and the outcome of what they just did. */
export function ManageActions({ token, action, result, merchant, date, messages: m }: Props) {
  const fill = (text: string) => interpolate(text, { merchant, date });
  const bad = result === "failed" || result === "not_allowed" || result === "changed";
  return (
    <section className="card" aria-labelledby="manage-actions-title">
      <h2 id="manage-actions-title" className="section-title">
        {m.cancelHeading}
      </h2>
      <div role="status" className="alert-region">
        {result && <p className={bad ? "alert" : "confirmation"}>{fill(m.results[result])}</p>}
      </div>
      {action === "cancel" && (
        <form action={cancelFromLink.bind(null, token)}>
          <p className="notice">{fill(m.cancelBody)}</p>
          <button type="submit" className="button danger">
            {m.cancelButton}
          </button>
        </form>
      )}
      {action === "resume" && (
        <form action={resumeFromLink.bind(null, token)}>
          <p className="notice" data-testid="ends-note">
            {fill(m.canceledByYou)} {fill(m.resumeBody)}
          </p>
          <button type="submit" className="button primary">
            {m.resumeButton}
          </button>
        </form>
      )}
      {action === "merchant_scheduled" && (
        <p className="notice" data-testid="ends-note">
          {fill(m.merchantScheduled)}
        </p>
      )}
      {action === "past_due" && <p className="notice">{fill(m.pastDue)}</p>}
      {action === "ended" && <p className="notice">{m.ended}</p>}
      <p className="hint">{m.noChanges}</p>
    </section>
  );
}
