import type { DemoDataSize } from "../config.js";

/** How many nodes of each label a demo graph has. */
export interface GraphSize {
  people: number;
  topics: number;
  customers: number;
  decisions: number;
  features: number;
  disagreements: number;
  commitments: number;
}

/** Every size keeps the proportions of a believable organisation, scaled by its decisions. */
function scaled(decisions: number): GraphSize {
  return {
    people: Math.round(decisions / 10),
    topics: Math.round(decisions / 33),
    customers: Math.round(decisions / 20),
    decisions,
    features: Math.round(decisions * 0.075),
    disagreements: Math.round(decisions * 0.15),
    commitments: Math.round(decisions * 0.75),
  };
}

export const graphSizes: Record<DemoDataSize, GraphSize> = {
  small: scaled(2_000),
  "10k": scaled(10_000),
  "100k": scaled(100_000),
  "1m": scaled(1_000_000),
};
