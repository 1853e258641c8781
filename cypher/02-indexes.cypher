// Range indexes behind the root fields' filters and orders (contract §7). A range index can
// return its entries in order, so `ORDER BY x DESC LIMIT n` over an indexed `x` reads n entries
// instead of sorting the label.

// decisions: newest `decidedAt` first, read in order from its index (undated decisions are not
// in it: they come after, in `id` order, from the uniqueness constraint's index); `since` is a
// range on it; `status`, `regretScoreMin`, `executionGapDaysMin` filter while it is read.
CREATE INDEX decision_decided_at IF NOT EXISTS FOR (n:Decision) ON (n.decidedAt);
CREATE INDEX decision_status IF NOT EXISTS FOR (n:Decision) ON (n.status);
CREATE INDEX decision_regret_score IF NOT EXISTS FOR (n:Decision) ON (n.regretScore);
CREATE INDEX decision_execution_gap_days IF NOT EXISTS FOR (n:Decision) ON (n.executionGapDays);
// `orderBy` (contract §7 part 2) reads every orderable property's index in order, either way:
// `decidedAt`, `regretScore`, `executionGapDays` above, `title` here.
CREATE INDEX decision_title IF NOT EXISTS FOR (n:Decision) ON (n.title);

// disagreements: newest `raisedAt` first, read in order from its index; unraised ones last.
CREATE INDEX disagreement_raised_at IF NOT EXISTS FOR (n:Disagreement) ON (n.raisedAt);
CREATE INDEX disagreement_resolved IF NOT EXISTS FOR (n:Disagreement) ON (n.resolved);
// `orderBy: {field: RESOLVED_AT}`.
CREATE INDEX disagreement_resolved_at IF NOT EXISTS FOR (n:Disagreement) ON (n.resolvedAt);

// features, topics, customers, people: ordered by `name`; features by `stage`, `team`, `shipped`;
// customers by `health`.
CREATE INDEX feature_name IF NOT EXISTS FOR (n:Feature) ON (n.name);
CREATE INDEX feature_stage IF NOT EXISTS FOR (n:Feature) ON (n.stage);
CREATE INDEX feature_team IF NOT EXISTS FOR (n:Feature) ON (n.team);
CREATE INDEX feature_shipped IF NOT EXISTS FOR (n:Feature) ON (n.shipped);
// `orderBy: {field: SHIPPED_ON}`.
CREATE INDEX feature_shipped_on IF NOT EXISTS FOR (n:Feature) ON (n.shippedOn);
CREATE INDEX topic_name IF NOT EXISTS FOR (n:Topic) ON (n.name);
CREATE INDEX customer_name IF NOT EXISTS FOR (n:Customer) ON (n.name);
CREATE INDEX customer_health IF NOT EXISTS FOR (n:Customer) ON (n.health);
CREATE INDEX person_name IF NOT EXISTS FOR (n:Person) ON (n.name);

// openCommitments: a person's commitments with status OPEN.
CREATE INDEX commitment_status IF NOT EXISTS FOR (n:Commitment) ON (n.status);
