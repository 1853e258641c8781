// The explorer's drawing of a neighborhood (contract §7 part 4), beside GraphiQL's JSON: plain
// browser JavaScript and SVG, no library, no build step. The first `Neighborhood` an answer holds
// (`nodes { distance node { … } }` with `links { fromId toId … }`) is drawn with the start node in
// the middle and each distance on a ring around it, nodes coloured by type, links as arrows in
// their stored direction. `window.kgGraph.show(container, answer)` draws, or hides the panel
// when the answer holds no neighborhood.
(() => {
  "use strict";

  const SVG = "http://www.w3.org/2000/svg";
  /** `NodeType`'s values in declared order, and the colour of each. */
  const COLOURS = {
    DECISION: "#0969da",
    PERSON: "#8250df",
    COMMITMENT: "#bf8700",
    TOPIC: "#1a7f37",
    FEATURE: "#cf222e",
    CUSTOMER: "#0a7a8a",
    DISAGREEMENT: "#bc4c00",
    NODE: "#57606a",
  };
  const SIZE = 520;
  const RADIUS = 9;

  /** The first object of the answer shaped like a neighborhood, depth first. */
  function findNeighborhood(value) {
    if (value === null || typeof value !== "object") return undefined;
    if (
      Array.isArray(value.nodes) &&
      value.nodes.length > 0 &&
      value.nodes.every((item) => item && typeof item.distance === "number" && item.node && "id" in item.node)
    )
      return value;
    for (const child of Object.values(value)) {
      const found = findNeighborhood(child);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  const element = (name, attributes, text) => {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  };

  /** Each node's type: its `__typename`, else the type a link names for its id, else unknown. */
  function typesOf(neighborhood) {
    const types = new Map();
    const links = Array.isArray(neighborhood.links) ? neighborhood.links : [];
    for (const link of links) {
      if (link.fromType && link.fromId !== undefined) types.set(String(link.fromId), link.fromType);
      if (link.toType && link.toId !== undefined) types.set(String(link.toId), link.toType);
    }
    for (const { node } of neighborhood.nodes)
      if (typeof node.__typename === "string") types.set(String(node.id), node.__typename.toUpperCase());
    return types;
  }

  function draw(neighborhood) {
    const links = (Array.isArray(neighborhood.links) ? neighborhood.links : []).filter(
      (link) => link && link.fromId !== undefined && link.toId !== undefined,
    );
    const reached = neighborhood.nodes.map(({ distance, node }) => ({ id: String(node.id), distance }));
    const ids = new Set(reached.map((node) => node.id));
    // The start: the end of a link that is not a reached node.
    const startId =
      links.map((link) => String(link.fromId)).find((id) => !ids.has(id)) ??
      links.map((link) => String(link.toId)).find((id) => !ids.has(id));
    const types = typesOf(neighborhood);
    const position = new Map();
    const center = SIZE / 2;
    if (startId !== undefined) position.set(startId, { x: center, y: center, distance: 0 });
    const byDistance = new Map();
    for (const node of reached)
      byDistance.set(node.distance, [...(byDistance.get(node.distance) ?? []), node]);
    // The rings fill the drawing whatever the depth.
    const farthest = Math.max(1, ...byDistance.keys());
    const ring = (center - 36) / farthest;
    for (const [distance, nodes] of byDistance)
      nodes.forEach((node, i) => {
        const angle = (2 * Math.PI * i) / nodes.length - Math.PI / 2 + distance * 0.35;
        const r = distance * ring;
        position.set(node.id, { x: center + r * Math.cos(angle), y: center + r * Math.sin(angle), distance });
      });

    const svg = element("svg", {
      viewBox: `0 0 ${SIZE} ${SIZE}`,
      role: "img",
      "aria-label": `A neighborhood of ${reached.length} nodes and ${links.length} links`,
    });
    const defs = element("defs", {});
    const marker = element("marker", {
      id: "kg-arrow",
      viewBox: "0 0 10 10",
      refX: 10,
      refY: 5,
      markerWidth: 7,
      markerHeight: 7,
      orient: "auto-start-reverse",
    });
    marker.append(element("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "kg-arrow" }));
    defs.append(marker);
    svg.append(defs);
    for (let d = 1; d <= farthest; d++)
      svg.append(element("circle", { cx: center, cy: center, r: d * ring, class: "kg-ring" }));
    for (const link of links) {
      const from = position.get(String(link.fromId));
      const to = position.get(String(link.toId));
      if (from === undefined || to === undefined) continue;
      const length = Math.hypot(to.x - from.x, to.y - from.y) || 1;
      const [dx, dy] = [(to.x - from.x) / length, (to.y - from.y) / length];
      const line = element("line", {
        x1: from.x + dx * RADIUS,
        y1: from.y + dy * RADIUS,
        x2: to.x - dx * (RADIUS + 1),
        y2: to.y - dy * (RADIUS + 1),
        class: "kg-link",
        "marker-end": "url(#kg-arrow)",
        "data-from": String(link.fromId),
        "data-to": String(link.toId),
      });
      if (link.type) line.append(element("title", {}, `${link.fromId} —${link.type}→ ${link.toId}`));
      svg.append(line);
    }
    for (const [id, at] of position) {
      const type = types.get(id) ?? "NODE";
      const group = element("g", {
        class: `kg-node${at.distance === 0 ? " kg-start" : ""}`,
        "data-id": id,
        "data-type": type,
      });
      group.append(
        element("circle", {
          cx: at.x,
          cy: at.y,
          r: at.distance === 0 ? RADIUS + 3 : RADIUS,
          fill: COLOURS[type] ?? COLOURS.NODE,
        }),
      );
      group.append(
        element(
          "text",
          { x: at.x, y: at.y + RADIUS + 12, class: "kg-label" },
          id.length > 18 ? `${id.slice(0, 17)}…` : id,
        ),
      );
      group.append(
        element("title", {}, `${type} ${id}${at.distance > 0 ? `, ${at.distance} link(s) away` : ""}`),
      );
      svg.append(group);
    }
    return svg;
  }

  function legend(types) {
    const list = document.createElement("ul");
    list.className = "kg-legend";
    for (const type of Object.keys(COLOURS).filter((name) => types.has(name))) {
      const item = document.createElement("li");
      const swatch = document.createElement("span");
      swatch.className = "kg-swatch";
      swatch.style.background = COLOURS[type];
      item.append(swatch, document.createTextNode(type));
      list.append(item);
    }
    return list;
  }

  function show(container, answer) {
    const neighborhood = findNeighborhood(answer && answer.data);
    container.replaceChildren();
    container.hidden = neighborhood === undefined;
    if (neighborhood === undefined) return;
    const heading = document.createElement("h2");
    heading.textContent = `Neighborhood: ${neighborhood.nodes.length} nodes${neighborhood.truncated ? " (truncated)" : ""}`;
    const hint = document.createElement("p");
    hint.className = "kg-hint";
    hint.textContent =
      "Select links { fromId toId fromType toType } to draw them; node { __typename } colours nodes.";
    container.append(heading, draw(neighborhood), legend(new Set(typesOf(neighborhood).values())), hint);
  }

  window.kgGraph = { show };
})();
