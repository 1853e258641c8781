// Full-text indexes behind `search` (contract §7, v1 additions part 2). The `standard-folding`
// analyzer lowercases and folds accents, so the index finds a row's candidates case- and
// accent-insensitively; the service then checks contract §7's exact rule (every word of the
// search is a word of the text or the start of one, words being runs of letters and digits) on
// those candidates. Updated in the writing transaction (not eventually consistent): a row
// written a moment ago is found.
CREATE FULLTEXT INDEX decision_search IF NOT EXISTS FOR (n:Decision) ON EACH [n.title]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding', `fulltext.eventually_consistent`: false}};
CREATE FULLTEXT INDEX feature_search IF NOT EXISTS FOR (n:Feature) ON EACH [n.name]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding', `fulltext.eventually_consistent`: false}};
CREATE FULLTEXT INDEX topic_search IF NOT EXISTS FOR (n:Topic) ON EACH [n.name, n.canonicalAnswer]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding', `fulltext.eventually_consistent`: false}};
CREATE FULLTEXT INDEX customer_search IF NOT EXISTS FOR (n:Customer) ON EACH [n.name]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding', `fulltext.eventually_consistent`: false}};
CREATE FULLTEXT INDEX person_search IF NOT EXISTS FOR (n:Person) ON EACH [n.name]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding', `fulltext.eventually_consistent`: false}};
CREATE FULLTEXT INDEX disagreement_search IF NOT EXISTS FOR (n:Disagreement) ON EACH [n.summary]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding', `fulltext.eventually_consistent`: false}};
