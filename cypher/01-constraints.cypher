// Every domain node has a unique string `id` (contract §8). A uniqueness constraint also gives
// the range index behind every lookup by id: `decision(id)`, `topic(id)`, `topicId`, `ownerId`.
CREATE CONSTRAINT decision_id IF NOT EXISTS FOR (n:Decision) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT person_id IF NOT EXISTS FOR (n:Person) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT topic_id IF NOT EXISTS FOR (n:Topic) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT feature_id IF NOT EXISTS FOR (n:Feature) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT customer_id IF NOT EXISTS FOR (n:Customer) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT disagreement_id IF NOT EXISTS FOR (n:Disagreement) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT commitment_id IF NOT EXISTS FOR (n:Commitment) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (n:ApiKey) REQUIRE n.id IS UNIQUE;
// API keys are looked up by the SHA-256 of the presented key (contract §4).
CREATE CONSTRAINT api_key_hash IF NOT EXISTS FOR (n:ApiKey) REQUIRE n.hash IS UNIQUE;
