import type { Messages } from "@/lib/i18n";
import type { ManageAction } from "@/lib/manage/manage-view";
import { cancelFromLink, resumeFromLink } from "./actions";

type Props = {
  token: string;
  action: ManageAction;
  /** The one sentence saying where the subscription stands (manageSentence). */
  sentence: string;
  /** The outcome of the change just made, when it still agrees with the state, in words. */
  result: { text: string; bad: boolean } | null;
  ended: boolean;
  messages: Messages["manage"];
};

/** Where the subscription stands, what the customer can do now, and the outcome of what they just did. */
export function ManageActions({ token, action, sentence, result, ended, messages: m }: Props) {
  return (
    <section className="card" aria-labelledby="manage-actions-title">
      <h2 id="manage-actions-title" className="section-title">
        {m.cancelHeading}
      </h2>
      <div role="status" className="alert-region">
        {result && <p className={result.bad ? "alert" : "confirmation"}>{result.text}</p>}
      </div>
      <p className="notice" data-testid="manage-sentence">
        {sentence}
      </p>
      {action === "cancel" && (
        <form action={cancelFromLink.bind(null, token)}>
          <button type="submit" className="button danger">
            {m.cancelButton}
          </button>
        </form>
      )}
      {action === "resume" && (
        <form action={resumeFromLink.bind(null, token)}>
          <button type="submit" className="button primary">
            {m.resumeButton}
          </button>
        </form>
      )}
      {!ended && <p className="hint">{m.noChanges}</p>}
    </section>
  );
}
