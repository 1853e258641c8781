import { Faker, base, en } from "@faker-js/faker";
import type { GraphSize } from "./sizes.js";

// Rows as the loader writes them: temporal values as ISO strings (converted by `datetime()` /
// `date()` in Cypher), links as the ids of their targets.
export interface PersonRow {
  id: string;
  name: string;
  email: string | null;
  team: string | null;
}
export interface TopicRow {
  id: string;
  name: string;
  canonicalAnswer: string | null;
}
export interface CustomerRow {
  id: string;
  name: string;
  health: string;
}
export interface DecisionRow {
  id: string;
  title: string;
  status: string;
  decidedAt: string | null;
  regretScore: number | null;
  executionGapDays: number | null;
  decidedBy: string | null;
  topic: string | null;
}
export interface FeatureRow {
  id: string;
  name: string;
  stage: string;
  team: string | null;
  shipped: boolean;
  shippedOn: string | null;
  owner: string | null;
  requestedBy: string[];
}
export interface DisagreementRow {
  id: string;
  summary: string;
  resolved: boolean;
  raisedAt: string | null;
  resolvedAt: string | null;
  topic: string | null;
  participants: string[];
}
export interface CommitmentRow {
  id: string;
  description: string;
  status: string;
  dueOn: string | null;
  owner: string | null;
  decision: string | null;
}

/** One lazy row stream per label; each call starts the label's stream afresh. */
export interface DemoGraph {
  people(): Iterable<PersonRow>;
  topics(): Iterable<TopicRow>;
  customers(): Iterable<CustomerRow>;
  decisions(): Iterable<DecisionRow>;
  features(): Iterable<FeatureRow>;
  disagreements(): Iterable<DisagreementRow>;
  commitments(): Iterable<CommitmentRow>;
}

const TEAMS = [
  "Platform",
  "Payments",
  "Growth",
  "Mobile",
  "Data",
  "Security",
  "Search",
  "Billing",
  "Identity",
  "Infrastructure",
  "Support Tools",
  "Design Systems",
];
const AREAS = [
  "Pricing",
  "Onboarding",
  "Checkout",
  "Search ranking",
  "Data retention",
  "Incident response",
  "API versioning",
  "Mobile releases",
  "Access control",
  "Observability",
  "Hiring",
  "Vendor selection",
  "Localisation",
  "Billing",
  "Reporting",
  "Notifications",
  "Caching",
  "Storage",
  "Experimentation",
  "Accessibility",
];
const QUALIFIERS = [
  "for enterprise accounts",
  "in the EU",
  "for the public API",
  "on mobile",
  "for self-serve customers",
  "in the data warehouse",
  "for partners",
  "across regions",
  "for internal tools",
  "in the next fiscal year",
];
const VERBS = [
  "Adopt",
  "Retire",
  "Migrate to",
  "Standardise on",
  "Pilot",
  "Deprecate",
  "Build",
  "Buy",
  "Outsource",
  "Consolidate",
];
const THINGS = [
  "Kafka",
  "PostgreSQL",
  "a feature-flag service",
  "usage-based pricing",
  "SSO via SAML",
  "a design system",
  "weekly releases",
  "GraphQL",
  "on-call rotations",
  "a shared analytics model",
  "Kubernetes",
  "an external payments provider",
  "regional data residency",
  "a status page",
  "contract tests",
];
const FEATURE_NOUNS = [
  "export",
  "audit log",
  "dashboard",
  "webhooks",
  "SSO",
  "bulk edit",
  "approval flow",
  "dark mode",
  "usage report",
  "sandbox",
  "role templates",
  "API tokens",
  "alerts",
  "custom fields",
  "data import",
];
const DECISION_STATUS = ["PROPOSED", "DECIDED", "EXECUTED", "REVERSED", "SUPERSEDED"] as const;
const STAGES = ["IDEA", "PLANNED", "IN_PROGRESS", "BETA", "GENERALLY_AVAILABLE", "SUNSET"] as const;
const HEALTH = ["HEALTHY", "AT_RISK", "CRITICAL", "CHURNED"] as const;
const COMMITMENT_STATUS = ["OPEN", "DONE", "DROPPED"] as const;

const DAY_MS = 86_400_000;
/** Every timestamp lies in the five years before this instant, so reruns give identical data. */
const NOW = Date.UTC(2026, 9, 1);

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/**
 * A deterministic organisation of the given size: the same seed and size always give the same
 * rows, whatever order the labels are consumed in (each label draws from its own seeded stream).
 * Rows are generated lazily so a million decisions never sit in memory at once.
 */
export function generateDemoGraph(size: GraphSize, seed = 42): DemoGraph {
  const stream = (label: number) => {
    const f = new Faker({ locale: [en, base] });
    f.seed([seed, label]);
    return f;
  };
  const id = (prefix: string, count: number) => (i: number) =>
    `${prefix}-${pad(i + 1, String(count).length)}`;
  const personId = id("person", size.people);
  const topicId = id("topic", size.topics);
  const customerId = id("customer", size.customers);
  const decisionId = id("decision", size.decisions);
  const pick = (f: Faker, count: number, toId: (i: number) => string) =>
    toId(f.number.int({ max: count - 1 }));
  const instant = (f: Faker, fromDaysAgo: number, toDaysAgo = 0) =>
    new Date(NOW - f.number.int({ min: toDaysAgo * DAY_MS, max: fromDaysAgo * DAY_MS })).toISOString();
  const maybe = <T>(f: Faker, probability: number, value: () => T): T | null =>
    f.datatype.boolean({ probability }) ? value() : null;

  return {
    *people() {
      const f = stream(1);
      for (let i = 0; i < size.people; i++) {
        const first = f.person.firstName();
        const last = f.person.lastName();
        yield {
          id: personId(i),
          name: `${first} ${last}`,
          email: maybe(f, 0.95, () =>
            f.internet.email({ firstName: first, lastName: last, provider: "example.com" }).toLowerCase(),
          ),
          team: maybe(f, 0.97, () => f.helpers.arrayElement(TEAMS)),
        };
      }
    },
    *topics() {
      const f = stream(2);
      for (let i = 0; i < size.topics; i++) {
        const name = `${f.helpers.arrayElement(AREAS)} ${f.helpers.arrayElement(QUALIFIERS)}`;
        yield {
          id: topicId(i),
          name: i < AREAS.length * QUALIFIERS.length ? name : `${name} (${Math.floor(i / 200) + 1})`,
          canonicalAnswer: maybe(f, 0.6, () => f.lorem.sentence({ min: 8, max: 16 })),
        };
      }
    },
    *customers() {
      const f = stream(3);
      for (let i = 0; i < size.customers; i++) {
        yield {
          id: customerId(i),
          name: f.company.name(),
          health: f.helpers.weightedArrayElement(
            HEALTH.map((value, w) => ({ value, weight: [70, 18, 8, 4][w] ?? 1 })),
          ),
        };
      }
    },
    *decisions() {
      const f = stream(4);
      for (let i = 0; i < size.decisions; i++) {
        const status = f.helpers.weightedArrayElement(
          DECISION_STATUS.map((value, w) => ({ value, weight: [15, 35, 35, 7, 8][w] ?? 1 })),
        );
        const executed = status === "EXECUTED" || status === "REVERSED";
        yield {
          id: decisionId(i),
          title: `${f.helpers.arrayElement(VERBS)} ${f.helpers.arrayElement(THINGS)} ${f.helpers.arrayElement(QUALIFIERS)}`,
          status,
          // Proposals are not decided yet; a few old decisions were recorded without a date.
          decidedAt: status === "PROPOSED" ? null : maybe(f, 0.97, () => instant(f, 5 * 365)),
          regretScore: executed
            ? maybe(f, 0.7, () => Math.round(f.number.float({ min: 0, max: 1 }) * 100) / 100)
            : null,
          executionGapDays: executed ? f.number.int({ min: 0, max: 180 }) : null,
          decidedBy: maybe(f, 0.98, () => pick(f, size.people, personId)),
          topic: maybe(f, 0.99, () => pick(f, size.topics, topicId)),
        };
      }
    },
    *features() {
      const f = stream(5);
      for (let i = 0; i < size.features; i++) {
        const stage = f.helpers.arrayElement(STAGES);
        const shipped = stage === "BETA" || stage === "GENERALLY_AVAILABLE" || stage === "SUNSET";
        const requests = f.number.int({ max: Math.min(6, size.customers) });
        yield {
          id: id("feature", size.features)(i),
          name: `${f.helpers.arrayElement(AREAS)} ${f.helpers.arrayElement(FEATURE_NOUNS)} v${Math.floor(i / 300) + 1}`,
          stage,
          team: maybe(f, 0.95, () => f.helpers.arrayElement(TEAMS)),
          shipped,
          shippedOn: shipped ? maybe(f, 0.9, () => instant(f, 3 * 365).slice(0, 10)) : null,
          owner: maybe(f, 0.95, () => pick(f, size.people, personId)),
          requestedBy: [
            ...new Set(Array.from({ length: requests }, () => pick(f, size.customers, customerId))),
          ],
        };
      }
    },
    *disagreements() {
      const f = stream(6);
      for (let i = 0; i < size.disagreements; i++) {
        const resolved = f.datatype.boolean({ probability: 0.6 });
        const raisedAt = maybe(f, 0.97, () => instant(f, 4 * 365, 30));
        const participants = f.number.int({ min: 2, max: Math.min(5, size.people) });
        yield {
          id: id("disagreement", size.disagreements)(i),
          summary: `Whether to ${f.helpers.arrayElement(VERBS).toLowerCase()} ${f.helpers.arrayElement(THINGS)} ${f.helpers.arrayElement(QUALIFIERS)}`,
          resolved,
          raisedAt,
          resolvedAt: resolved && raisedAt !== null ? instant(f, 29, 0) : null,
          topic: maybe(f, 0.99, () => pick(f, size.topics, topicId)),
          participants: [
            ...new Set(Array.from({ length: participants }, () => pick(f, size.people, personId))),
          ],
        };
      }
    },
    *commitments() {
      const f = stream(7);
      for (let i = 0; i < size.commitments; i++) {
        yield {
          id: id("commitment", size.commitments)(i),
          description: `${f.hacker.verb()} the ${f.hacker.noun()} ${f.helpers.arrayElement(QUALIFIERS)}`,
          status: f.helpers.weightedArrayElement(
            COMMITMENT_STATUS.map((value, w) => ({ value, weight: [45, 45, 10][w] ?? 1 })),
          ),
          dueOn: maybe(f, 0.9, () => instant(f, 365, -180).slice(0, 10)),
          owner: maybe(f, 0.97, () => pick(f, size.people, personId)),
          decision: maybe(f, 0.95, () => pick(f, size.decisions, decisionId)),
        };
      }
    },
  };
}
