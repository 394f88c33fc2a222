import type { JobKind } from "@/db/schema";
import type { ClaimedJob, ClaimLane } from "@/lib/jobs/claim-jobs";

/** Webhook attempts: slots of their own, so slow receivers never hold up the other work (and the reverse). */
const webhookKinds: JobKind[] = ["deliver_webhook"];

export type Lane = {
  capacity: number;
  kinds?: JobKind[];
  excludeKinds?: JobKind[];
  running: number;
  /** The last claim filled every free slot: more rows are probably due. */
  backlog: boolean;
};

/**
 * The worker's lanes: one for webhook attempts and one for every other kind, each only when the
 * kinds it runs (all when `wanted` is unset) include some of that lane's.
 */
export function buildLanes(
  wanted: JobKind[] | undefined,
  capacity: { webhooks: number; others: number },
): Lane[] {
  const lanes: Lane[] = [];
  if (!wanted || wanted.some((k) => webhookKinds.includes(k)))
    lanes.push({ capacity: capacity.webhooks, kinds: webhookKinds, running: 0, backlog: false });
  const others = wanted?.filter((k) => !webhookKinds.includes(k));
  if (!others || others.length)
    lanes.push({
      capacity: capacity.others,
      ...(others ? { kinds: others } : { excludeKinds: webhookKinds }),
      running: 0,
      backlog: false,
    });
  return lanes;
}

export function laneOf(lanes: readonly Lane[], job: ClaimedJob): Lane {
  return lanes.find((l) => (l.kinds ? l.kinds.includes(job.kind) : !l.excludeKinds!.includes(job.kind)))!;
}

/**
 * How many rows each lane asks for: its free slots. With a backlog, once a batch of them is free
 * (each claim is a round trip), or at once when new work was announced or the poll interval
 * passed (slow jobs free slots slowly). Without one, only then: a freed slot alone does not make
 * anything due.
 */
export function laneAsks(lanes: readonly Lane[], announced: boolean): number[] {
  return lanes.map((lane) => {
    const free = lane.capacity - lane.running;
    if (!lane.backlog && !announced) return 0;
    const batch = lane.backlog && !announced ? Math.max(1, Math.floor(lane.capacity / 4)) : 1;
    return free >= batch ? free : 0;
  });
}

/** The claim statement's lanes for these asks. */
export function claimLanes(lanes: readonly Lane[], asks: readonly number[]): ClaimLane[] {
  return lanes.map((lane, i) => ({ limit: asks[i]!, kinds: lane.kinds, excludeKinds: lane.excludeKinds }));
}

/** After a claim: a lane that got every row it asked for probably has more due. */
export function noteBacklogs(
  lanes: readonly Lane[],
  asks: readonly number[],
  claimed: readonly ClaimedJob[],
) {
  lanes.forEach((lane, i) => {
    if (asks[i]! > 0) lane.backlog = claimed.filter((j) => laneOf(lanes, j) === lane).length === asks[i];
  });
}
