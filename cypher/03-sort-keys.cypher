// Derived sort keys (README, "Graph model"). Neo4j's range indexes leave out nodes without the
// property, so "newest first, undated last" cannot be read in order from an index on `decidedAt`
// alone. Each node carries its timestamp, or 0001-01-01T00:00:00Z when it has none, as a sort
// key that every node has. Writers set it with the timestamp; these statements set it where it
// is missing or stale, so applying them again is cheap and changes nothing.
MATCH (n:Decision)
WHERE n.decidedAtSortKey IS NULL OR n.decidedAtSortKey <> coalesce(n.decidedAt, datetime('0001-01-01T00:00:00Z'))
CALL (n) { SET n.decidedAtSortKey = coalesce(n.decidedAt, datetime('0001-01-01T00:00:00Z')) } IN TRANSACTIONS OF 10000 ROWS;
MATCH (n:Disagreement)
WHERE n.raisedAtSortKey IS NULL OR n.raisedAtSortKey <> coalesce(n.raisedAt, datetime('0001-01-01T00:00:00Z'))
CALL (n) { SET n.raisedAtSortKey = coalesce(n.raisedAt, datetime('0001-01-01T00:00:00Z')) } IN TRANSACTIONS OF 10000 ROWS;
